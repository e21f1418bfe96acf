/** wisp's version, as package.json says; written into partials and the MCP handshake. */
export const WISP_VERSION = '0.1.0';
