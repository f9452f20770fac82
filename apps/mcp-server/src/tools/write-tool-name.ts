/** The one write tool's name (a small module: startup validates PFSENSE_ALLOWED_TOOLS before loading the tool). */
export const WRITE_TOOL_NAME = 'pfsense_set_firewall_alias_description';
/** The read-only view of the write operations, registered with the write tool under the same gates. */
export const WRITE_OPERATIONS_TOOL_NAME = 'pfsense_get_write_operations';
/** The alias entries write tool (block / unblock addresses), offered only when PFSENSE_WRITE_CAPABILITIES names alias_entries. */
export const ALIAS_ENTRIES_TOOL_NAME = 'pfsense_change_firewall_alias_entries';
