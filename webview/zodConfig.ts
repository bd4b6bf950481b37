// Imported first by main.ts. zod compiles fast object parsers with `new Function` unless told
// not to; the webview's CSP forbids eval, and even zod's probe for it is a reported violation.
import * as z from 'zod';

z.config({ jitless: true });
