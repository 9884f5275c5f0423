//! rmcp waits-for-signal: `main` written as rmcp's README writes it (`serve(stdio()).await?`,
//! `waiting().await?`), then, as many real servers do, it waits until a signal ends it
//! (`libc::pause`, SIGTERM's and SIGINT's default action). Once it has served a request, EOF ends
//! rmcp's loop, `waiting()` returns, and the process stays up: fails exit-on-eof, and after a
//! crash no-survivors; a client's SIGTERM ends it. Before its first real request, in the
//! 2026-07-28 era, rmcp's `serve()` is still waiting for it (crates/rmcp/src/service/server.rs
//! `serve_server_with_ct_inner`, 3.11.0: a `server/discover` or a `ping` is answered and the wait
//! goes on) and EOF makes it return `Err(ConnectionClosed("initialize request"))`: `?` returns it
//! from main, exit 1, and the wait for a signal is never reached.
use rmcp::{ServiceExt, transport::stdio};
use rmcp_fakes::{Echo, init_logs};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    init_logs();
    let service = Echo::new("waits-for-signal").serve(stdio()).await?;
    let quit = service.waiting().await?;
    tracing::info!(?quit, "waiting() returned; waiting for a signal");
    loop {
        // SAFETY: pause(2) only suspends the thread until a signal arrives.
        unsafe { libc::pause() };
    }
}
