/** The one write tool's name (a small module: startup validates PFSENSE_ALLOWED_TOOLS before loading the tool). */
export const WRITE_TOOL_NAME = 'pfsense_set_firewall_alias_description';
