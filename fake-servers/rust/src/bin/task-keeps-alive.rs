//! rmcp task-keeps-alive: a background worker started with `tokio::task::spawn_blocking` (a
//! watcher loop, as servers run blocking I/O off the async threads) that never ends. On stdin EOF
//! `waiting()` returns and main returns, but the process does not exit: `#[tokio::main]` drops its
//! runtime after main's body, and that drop waits for every blocking task with no timeout (tokio
//! src/runtime/blocking/pool.rs: `impl Drop for BlockingPool` calls `shutdown(None)`). An ordinary
//! `tokio::spawn` task would not keep it up (it is dropped with the runtime), nor would a
//! `std::thread` (the process ends when main returns). Only a signal ends it: fails exit-on-eof.
use rmcp_fakes::{Echo, init_logs, run};
use std::time::Duration;

#[tokio::main]
async fn main() {
    init_logs();
    tokio::task::spawn_blocking(|| {
        loop {
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    run(Echo::new("task-keeps-alive")).await;
    tracing::info!("main returns; the runtime now waits for the blocking worker");
}
