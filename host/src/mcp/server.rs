//! The MCP server handler: tools/list and tools/call over a world.

use super::calls::{Calls, Ended};
use super::{asker, convert, progress};
use crate::lane::Session;
use crate::live::LiveWorld;
use crate::{CallContext, ToolResult, World};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ErrorCode, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Serves one live world to one client: each request reads the world current when it arrives.
pub struct SeamServer {
    world: Arc<LiveWorld>,
    calls: Arc<Calls>,
    /// The agents calls were made as: released when the session ends.
    agents: Arc<Mutex<BTreeSet<String>>>,
    /// The least severe log message the client wants (`logging/setLevel`): all until it says.
    log_level: Arc<AtomicU8>,
}

impl SeamServer {
    pub fn new(world: Arc<LiveWorld>) -> Self {
        Self {
            world,
            calls: Arc::default(),
            agents: Arc::default(),
            log_level: Arc::default(),
        }
    }

    /// The client's log level, by severity (debug 0 … emergency 7).
    pub fn log_level(&self) -> Arc<AtomicU8> {
        self.log_level.clone()
    }

    /// The agents this session has made calls as so far.
    pub fn agents(&self) -> Arc<Mutex<BTreeSet<String>>> {
        self.agents.clone()
    }

    /// The calls in flight, to cancel them when the session ends.
    pub fn calls(&self) -> Arc<Calls> {
        self.calls.clone()
    }

    /// The call's context: the world's session seen as this client, its progress token, and
    /// the client's human when it can be asked.
    fn call_context(&self, world: &World, request: &RequestContext<RoleServer>) -> CallContext {
        let runtime = tokio::runtime::Handle::current();
        let peer = &request.peer;
        let agent = peer
            .peer_info()
            .map(|info| info.client_info.name.clone())
            .filter(|name| !name.is_empty());
        let defaults = world.session();
        let agent = agent.unwrap_or(defaults.agent);
        self.agents
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(agent.clone());
        CallContext {
            session: Session {
                id: "mcp".into(),
                agent,
                cwd: defaults.cwd,
            },
            progress: request
                .meta
                .get_progress_token()
                .map(|token| progress::sink(peer.clone(), token, runtime.clone())),
            asker: asker::for_call(peer, runtime, request.ct.clone()),
            ..world.call_context(&format!("mcp-{}", request.id))
        }
    }
}

impl ServerHandler for SeamServer {
    fn get_info(&self) -> ServerConfig {
        // listChanged: a world swapped under a running server announces its new tools; logging:
        // a refused swap is reported to the client as a log message.
        #[allow(deprecated)] // Logging is deprecated by a future protocol revision, still current here.
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_logging()
            .build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new("seam", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools: Vec<Tool> = self.world.current().tools().iter().map(convert::tool).collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // The call is admitted on the world current now and finishes on it, whatever is swapped
        // in meanwhile.
        let world = self.world.current();
        // An unknown tool is a protocol error in MCP, not a tool result.
        if !world.tools().iter().any(|t| t.name == request.name) {
            return Err(ErrorData::invalid_params(world.no_such_tool(&request.name), None));
        }
        let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default()).to_string();
        let call = self.call_context(&world, &context);
        let ended = self
            .calls
            .run(world, request.name.into_owned(), arguments, call, context.ct.clone())
            .await;
        match ended {
            Ended::Finished(result) => Ok(convert::result(result).into()),
            // rmcp drops the response of a cancelled request: this result is never sent.
            Ended::Cancelled => {
                Ok(convert::result(ToolResult::error("CALL_CANCELLED", "cancelled by the client")).into())
            }
            Ended::Panicked(message) => Err(ErrorData::internal_error(format!("the call failed: {message}"), None)),
        }
    }

    #[allow(deprecated)] // Logging is deprecated by a future protocol revision, still current here.
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_level.store(request.level as u8, Ordering::Relaxed);
        Ok(())
    }

    /// What rmcp could not read as a request it knows lands here. For a method this server
    /// serves, that means its params were malformed (`arguments` that is no object): invalid
    /// params (-32602), with what was wrong, rather than method not found.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        const SERVED: [&str; 5] = ["initialize", "ping", "logging/setLevel", "tools/list", "tools/call"];
        let method = request.method;
        if !SERVED.contains(&method.as_str()) {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!("method not found: {method}"),
                None,
            ));
        }
        let params = request.params.unwrap_or_default();
        let why = match method.as_str() {
            "tools/call" => serde_json::from_value::<CallToolRequestParams>(params).err(),
            _ => None,
        };
        let why = why.map_or_else(|| "malformed".to_owned(), |e| e.to_string());
        Err(ErrorData::invalid_params(
            format!("invalid params for {method}: {why}"),
            None,
        ))
    }
}
