//! rmcp writes-after-eof: when `waiting()` returns it writes one last JSON-RPC message (a log
//! notification, "server stopped") to stdout itself, with `write_all` and `flush`, and logs what
//! the write returned. After a close the client still reads: the write succeeds. After a crash
//! nobody reads: the write fails with EPIPE, and nothing else happens, because a Rust program
//! ignores SIGPIPE (the standard library sets it to SIG_IGN before main: library/std/src/sys/pal/
//! unix/mod.rs `reset_sigpipe`, unless built with `-Zon-broken-pipe`). The error is a value; the
//! server logs it and exits 0. Contrast Go, which dies of SIGPIPE on the same write, and
//! prints-after-eof, where `println!` turns the same error into a panic.
use rmcp_fakes::{Echo, init_logs, run};
use std::io::Write;

const STOPPED: &str = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"server stopped"}}"#;

#[tokio::main]
async fn main() {
    init_logs();
    run(Echo::new("writes-after-eof")).await;
    let mut out = std::io::stdout().lock();
    let written = writeln!(out, "{STOPPED}").and_then(|()| out.flush());
    tracing::info!(?written, "last write");
}
