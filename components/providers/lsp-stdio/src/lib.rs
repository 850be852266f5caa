//! `lsp-stdio`: the lsp seam over language servers speaking JSON-RPC on stdio. Servers are
//! started through seam:subprocess and documents read through seam:fs, so LSP follows the
//! world's execution machine. Lanes are per call: the server process lives in the host
//! (detached) and each connection's protocol state in seam:host/state, guarded by a lease.

mod activity;
mod clock;
mod config;
mod connection;
mod document;
mod encoding;
mod errors;
mod framing;
mod lease;
mod message;
mod normalize;
mod query;
mod registry;
mod server_requests;
mod transport;
mod uri;

mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package seam:lsp-stdio;

            world lsp-stdio {
                import seam:fs/fs@0.1.0;
                import seam:subprocess/subprocess@0.1.0;
                import seam:host/config@0.1.0;
                import seam:host/state@0.1.0;
                import seam:tool/context@0.1.0;
                export seam:lsp/lsp@0.1.0;
                export seam:host/config-check@0.1.0;
            }
        "#,
        // Dependencies first: fs uses seam:sandbox, the subprocess package refers to seam:host.
        path: [
            "../../../wit/sandbox",
            "../../../wit/host",
            "../../../wit/subprocess",
            "../../../wit/fs",
            "../../../wit/tool",
            "../../../wit/lsp",
        ],
        generate_all,
    });
}

use bindings::exports::seam::lsp::lsp::{Error, Guest, QueryRequest, QueryResult, Server, ServerStatus};

use crate::config::Config;
use crate::connection::Connection;
use crate::document::Workspace;
use crate::lease::Lease;

struct LspStdio;

impl Guest for LspStdio {
    fn register_server(server: Server) -> Result<(), Error> {
        registry::register(&Config::load()?, server)
    }

    fn unregister_server(id: String) -> bool {
        let Ok(config) = Config::load() else {
            return false;
        };
        let Some(entry) = registry::unregister(&config, &id) else {
            return false;
        };
        for key in connection::keys_of(&id) {
            let wait = u64::from(config.request_timeout_ms);
            let Ok(lease) = Lease::acquire(&key, wait) else {
                connection::discard(&key);
                continue;
            };
            let workspace = key.split_once('|').and_then(|(_, root)| Workspace::open(root).ok());
            match workspace.and_then(|w| Connection::resume(&key, &entry, &config, &w, &lease)) {
                Some(live) => live.shut_down(),
                None => connection::discard(&key),
            }
        }
        true
    }

    fn servers() -> Result<Vec<ServerStatus>, Error> {
        let table = registry::table(&Config::load()?)?;
        Ok(table.iter().map(registry::Entry::status).collect())
    }

    fn query(request: QueryRequest) -> Result<QueryResult, Error> {
        query::run(&request)
    }
}

/// Asked when a world that configures this component loads: the server table is checked and
/// published then, every command resolved, so that no query ever meets a half-valid table.
impl bindings::exports::seam::host::config_check::Guest for LspStdio {
    fn check() -> Result<(), String> {
        let table = Config::load().and_then(|config| registry::table(&config));
        table.map(drop).map_err(|error| error.message)
    }
}

bindings::export!(LspStdio with_types_in bindings);
