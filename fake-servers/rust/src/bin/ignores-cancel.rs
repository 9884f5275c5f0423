//! rmcp ignores-cancel: `slow` does `ms` of blocking work (`spawn_blocking`, a `std::thread::sleep`
//! standing for a blocking library call) and never looks at its cancellation token. rmcp fires
//! the token on `notifications/cancelled` and at EOF after its 5 s drain, but only a handler that
//! checks it stops. rmcp drops the answer of a cancelled request (`serve_inner`: "dropping
//! response for cancelled request", since 2.2.0, #957). At EOF `waiting()` returns after the
//! drain, main returns, and then tokio's runtime waits for the blocking work to end
//! (tokio src/runtime/blocking/pool.rs: `impl Drop for BlockingPool` calls `shutdown(None)`,
//! which joins every blocking thread with no timeout): the process outlives its input by `ms`.
use rmcp::{ErrorData, handler::server::wrapper::Parameters, model::CallToolResult, tool, tool_handler, tool_router};
use rmcp_fakes::{SlowIn, init_logs, internal, run, text};
use std::time::Duration;

#[derive(Clone)]
struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Works for ms milliseconds, whatever happens.")]
    async fn slow(&self, Parameters(SlowIn { ms }): Parameters<SlowIn>) -> Result<CallToolResult, ErrorData> {
        tracing::info!("slow: working for {ms} ms");
        tokio::task::spawn_blocking(move || std::thread::sleep(Duration::from_millis(ms)))
            .await
            .map_err(internal)?;
        tracing::info!("slow: done");
        Ok(text("done"))
    }
}

#[tool_handler(name = "rmcp-ignores-cancel", version = "1.0.0")]
impl rmcp::ServerHandler for Server {}

#[tokio::main]
async fn main() {
    init_logs();
    run(Server).await;
}
