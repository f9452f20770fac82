/** The product version the report names (kept equal to the root package.json by a test). */
export const PRODUCT_NAME = 'pfsense-mcp';
export const PRODUCT_VERSION = '0.1.0';
