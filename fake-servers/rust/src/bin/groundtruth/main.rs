//! groundtruth measures what an rmcp fake server does when rmcp's own client loses it: the client
//! (`TokioChildProcess`, client.rs) is a process of its own that this program starts, brings to
//! the behaviour's point, then kills with SIGKILL ("kill") or lets close the session the SDK's way
//! ("close"). This program is a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so the server,
//! re-parented to it when the client dies, is its child: it reaps it and reads its exit status and
//! time, and it finds survivors by the process group it gave the client. Nothing here is the
//! harness: it is the reference the drills are compared with (fake-servers/rust/README.md).
//!
//!   groundtruth [--window MS] [--parallel N] <bin folder>...        every behaviour × variant × end, a Markdown table
//!   groundtruth client <kill|close> <inherit|pipe> <server binary>  the client role
mod behaviour;
mod client;
mod group;
mod supervise;
mod table;

use std::time::Duration;

const DEFAULT_WINDOW_MS: u64 = 8000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("client") {
        let [_, end, stderr, binary] = args.as_slice() else { client::fail("usage: groundtruth client <kill|close> <inherit|pipe> <server binary>") };
        let script = behaviour::script_of(behaviour::behaviour_of(binary)).unwrap_or_else(|| client::fail(&format!("no script for {binary}")));
        // rmcp's logs (the transport's "Child exited gracefully <status>") on stderr, for the measurer.
        rmcp_fakes::init_logs();
        let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
        runtime.block_on(client::run_client(end, stderr, binary, script));
        // The session is closed (or this process is killed first); do not wait for stray tasks.
        std::process::exit(0);
    }
    let (mut window, mut parallel, mut folders) = (Duration::from_millis(DEFAULT_WINDOW_MS), 4, Vec::new());
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--window" => window = Duration::from_millis(it.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| client::fail("--window MS"))),
            "--parallel" => parallel = it.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| client::fail("--parallel N")),
            _ => folders.push(arg),
        }
    }
    if folders.is_empty() {
        client::fail("usage: groundtruth [--window MS] [--parallel N] <bin folder>...");
    }
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } != 0 {
        client::fail(&format!("prctl(PR_SET_CHILD_SUBREAPER): {}", std::io::Error::last_os_error()));
    }
    table::print_table(&supervise::measure_all(&folders, window, parallel));
}
