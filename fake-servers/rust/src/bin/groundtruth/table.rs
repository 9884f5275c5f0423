//! One row per server and client variant, the kill and the close side by side.
use crate::supervise::Measured;

pub fn print_table(results: &[Measured]) {
    println!("| server | client | killed (SIGKILL): the server | survivors | closed (rmcp's cancel()) | survivors |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for pair in results.chunks(2) {
        let [kill, close] = pair else { continue };
        println!("| {} | {} | {} | {} | {} | {} |", kill.server, kill.client, kill.exit, names(&kill.survivors), close.exit, names(&close.survivors));
    }
}

fn names(survivors: &[String]) -> String {
    if survivors.is_empty() { "none".into() } else { survivors.join("; ") }
}
