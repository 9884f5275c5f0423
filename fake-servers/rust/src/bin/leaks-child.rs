//! rmcp leaks-child: `spawn-helper` starts `sleep 300` with std::process::Command and never waits
//! for it or ends it (dropping a `std::process::Child` neither kills nor waits for it). The server
//! exits on EOF; the child, re-parented, lives on. Fails no-survivors.
use rmcp::{ErrorData, model::CallToolResult, tool, tool_handler, tool_router};
use rmcp_fakes::{init_logs, internal, run, text};

#[derive(Clone)]
struct Server;

#[tool_router]
impl Server {
    #[tool(name = "spawn-helper", description = "Starts a helper and leaves it running.")]
    async fn spawn_helper(&self) -> Result<CallToolResult, ErrorData> {
        let helper = std::process::Command::new("sleep")
            .arg("300")
            .spawn()
            .map_err(internal)?;
        Ok(text(format!("helper pid {}", helper.id())))
    }
}

#[tool_handler(name = "rmcp-leaks-child", version = "1.0.0")]
impl rmcp::ServerHandler for Server {}

#[tokio::main]
async fn main() {
    init_logs();
    run(Server).await;
}
