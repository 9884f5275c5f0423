//! rmcp slow-tool: `slow` runs `sleep` for `ms` as a child bound to its request's cancellation
//! token (a `select!` on the token, and `kill_on_drop`). At stdin EOF rmcp's loop ends, then
//! drains: it waits up to 5 s for the responses of handlers still running (PR #759, since 1.3.0;
//! crates/rmcp/src/service.rs `serve_inner`), and only after that cancels their tokens
//! (`serve_loop_ct.cancel()`). So this handler, which stops as soon as its token fires, still
//! holds the server up for 5 s after EOF; then the token ends the child and `waiting()` returns.
//! A `notifications/cancelled` fires the token at once.
use rmcp::{ErrorData, handler::server::wrapper::Parameters, model::CallToolResult, tool, tool_handler, tool_router};
use rmcp_fakes::{SlowIn, init_logs, internal, run, seconds, text};
use tokio_util::sync::CancellationToken;

#[derive(Clone)]
struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Works for ms milliseconds unless cancelled.")]
    async fn slow(&self, Parameters(SlowIn { ms }): Parameters<SlowIn>, token: CancellationToken) -> Result<CallToolResult, ErrorData> {
        tracing::info!("slow: working for {ms} ms");
        let mut child = tokio::process::Command::new("sleep")
            .arg(seconds(ms))
            .kill_on_drop(true)
            .spawn()
            .map_err(internal)?;
        tokio::select! {
            _ = child.wait() => Ok(text("done")),
            _ = token.cancelled() => {
                let _ = child.kill().await;
                tracing::info!("slow: cancelled, its child ended");
                Err(ErrorData::internal_error("cancelled", None))
            }
        }
    }
}

#[tool_handler(name = "rmcp-slow-tool", version = "1.0.0")]
impl rmcp::ServerHandler for Server {}

#[tokio::main]
async fn main() {
    init_logs();
    run(Server).await;
}
