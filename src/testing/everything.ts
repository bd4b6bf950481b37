// The reference MCP server (@modelcontextprotocol/server-everything, a pinned dev dependency) for
// the tests: its entry point, and the server started over Streamable HTTP on a loopback port.
import { type ChildProcess, spawn } from 'node:child_process';

export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

/** server-everything over Streamable HTTP on `port`, once it listens (at `http://127.0.0.1:<port>/mcp`). */
export function httpEverything(port: number): Promise<ChildProcess> {
	const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
	return new Promise((resolve, reject) => {
		child.once('exit', (code) => {
			reject(new Error(`server-everything exited with ${code}`));
		});
		child.stderr.on('data', (chunk: Buffer) => {
			if (chunk.toString().includes('listening')) {
				resolve(child);
			}
		});
	});
}
