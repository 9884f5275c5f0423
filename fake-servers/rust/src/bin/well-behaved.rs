//! rmcp well-behaved: `echo`, and `run-helper` (runs `sleep 1` to its end: well past the 200 ms a
//! child must be seen alive for child-spawned, so a sample under load still catches it; 0.25 s
//! missed it at a load of 30). On stdin EOF rmcp's loop ends (`QuitReason::Closed`), nothing is in flight to drain,
//! `waiting()` returns, main returns, the process exits 0. Passes every check.
use rmcp::{ErrorData, handler::server::wrapper::Parameters, model::CallToolResult, tool, tool_handler, tool_router};
use rmcp_fakes::{EchoIn, init_logs, internal, run, text};

#[derive(Clone)]
struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Answers with the text it was given.")]
    async fn echo(&self, Parameters(EchoIn { text: t }): Parameters<EchoIn>) -> CallToolResult {
        text(t)
    }

    #[tool(name = "run-helper", description = "Runs a short helper to its end.")]
    async fn run_helper(&self) -> Result<CallToolResult, ErrorData> {
        let status = tokio::process::Command::new("sleep").arg("1").status().await;
        match status {
            Ok(_) => Ok(text("helper done")),
            Err(e) => Err(internal(e)),
        }
    }
}

#[tool_handler(name = "rmcp-well-behaved", version = "1.0.0")]
impl rmcp::ServerHandler for Server {}

#[tokio::main]
async fn main() {
    init_logs();
    run(Server).await;
}
