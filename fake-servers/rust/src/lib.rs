//! What every rmcp fake server shares: logs on stderr (stdout is the wire) and the run on stdio
//! written as rmcp's own README writes it (`let service = server.serve(stdio()).await?;
//! service.waiting().await?;`, crates/rmcp/README.md, rmcp 3.11.0), the tools' arguments, and
//! the server with only `echo` (`Echo`) of the behaviours whose point is around the run. Each
//! src/bin/<behaviour>.rs adds its one behaviour.

use rmcp::{
    ErrorData, RoleServer, Service, ServiceExt,
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
    transport::stdio,
};

/// `echo`'s argument.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct EchoIn {
    /// the text to answer with
    pub text: String,
}

/// `slow`'s argument (slow-tool, ignores-cancel).
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SlowIn {
    /// how long to work, in milliseconds
    pub ms: u64,
}

/// A server with only `echo`, named `rmcp-<behaviour>`: the server of prints-after-eof,
/// task-keeps-alive and writes-after-eof, whose behaviour is what main does around `run`.
#[derive(Clone)]
pub struct Echo {
    name: String,
}

impl Echo {
    pub fn new(behaviour: &str) -> Self {
        Self { name: format!("rmcp-{behaviour}") }
    }
}

#[tool_router]
impl Echo {
    #[tool(description = "Answers with the text it was given.")]
    async fn echo(&self, Parameters(EchoIn { text: t }): Parameters<EchoIn>) -> CallToolResult {
        text(t)
    }
}

/// What `#[tool_handler(name = ..., version = "1.0.0")]` writes (rmcp-macros tool_handler.rs
/// `build_get_info`), with the name the server was made with.
#[tool_handler]
impl rmcp::ServerHandler for Echo {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(Implementation::new(self.name.clone(), "1.0.0"))
    }
}

/// rmcp logs through `tracing`: without a subscriber its errors ("fail to response message",
/// "timed out draining in-flight responses") go nowhere. This one writes them to stderr, with
/// the time, as rmcp's examples do (`tracing_subscriber::fmt().with_writer(std::io::stderr)`).
pub fn init_logs() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .init();
}

/// Serves on stdio until rmcp's `waiting()` returns (stdin EOF, after the drain:
/// crates/rmcp/src/service.rs `serve_inner`) and logs how it returned.
pub async fn run<S: Service<RoleServer>>(server: S) {
    let service = match server.serve(stdio()).await {
        Ok(service) => service,
        Err(error) => {
            tracing::error!(%error, "serve failed");
            return;
        }
    };
    let quit = service.waiting().await;
    tracing::info!(?quit, "waiting() returned");
}

/// A tool result of one text block.
pub fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

/// A failure as the tool's error response (JSON-RPC internal error, the message its text).
pub fn internal(error: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}

/// `ms` as `sleep`'s argument.
pub fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}
