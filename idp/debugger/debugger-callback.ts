/** The debugger's redirect URI path under an issuer: the issuer registers it, the debugger's router serves it. */
export const DEBUGGER_CALLBACK = '/_debugger/callback';
