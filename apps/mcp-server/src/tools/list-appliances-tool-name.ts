/** The fleet's own tool (a server with PFSENSE_INVENTORY_FILE): a plain constant, so startup can name it cheaply. */
export const LIST_APPLIANCES_TOOL_NAME = 'pfsense_list_appliances';
