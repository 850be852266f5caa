//! Plain kit values into the generated WIT types.

use super::bindings::seam::tool::types::ToolSpec;

pub fn wit_spec((name, description, input_schema): (String, String, String)) -> ToolSpec {
    ToolSpec {
        name,
        description,
        input_schema,
    }
}

crate::wit_tool_result!(crate::plugin::bindings::seam::tool::types);
