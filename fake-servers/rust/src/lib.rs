//! What every rmcp fake server shares: logs on stderr (stdout is the wire) and the run on stdio
//! written as rmcp's own README writes it (`let service = server.serve(stdio()).await?;
//! service.waiting().await?;`, crates/rmcp/README.md, rmcp 3.11.0). Each src/bin/<behaviour>.rs
//! adds its one behaviour.

use rmcp::{RoleServer, Service, ServiceExt, model::CallToolResult, model::ContentBlock, transport::stdio};

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

/// `ms` as `sleep`'s argument.
pub fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}
