/** The one write tool's name (a small module: startup validates PFSENSE_ALLOWED_TOOLS before loading the tool). */
export const WRITE_TOOL_NAME = 'pfsense_set_firewall_alias_description';
/** The read-only view of the write operations, registered with the write tool under the same gates. */
export const WRITE_OPERATIONS_TOOL_NAME = 'pfsense_get_write_operations';
