//! rmcp prints-after-eof: when `waiting()` returns it prints one last JSON-RPC message to stdout
//! with `println!`. After a close the client still reads: the print succeeds, exit 0. After a
//! crash the write fails with EPIPE (Rust ignores SIGPIPE, so no signal comes), and `println!`
//! panics on a failed write (library/std/src/io/stdio.rs `print_to`: "failed printing to
//! stdout"): the main thread panics and the process exits 101. Its own end all the same:
//! exit-on-eof passes, and the exit is classed a crash, with the panic line.
use rmcp_fakes::{Echo, init_logs, run};

#[tokio::main]
async fn main() {
    init_logs();
    run(Echo::new("prints-after-eof")).await;
    println!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":"server stopped"}}}}"#);
}
