// The MCP conformance suite's client under test (@modelcontextprotocol/conformance, run by
// test/conformance/run.mjs): Aside's own MCP stack — the window's servers over the SDK connector,
// their tools as Aside's tools — pointed at the scenario's server, whose URL is the last argument.
// It connects, lists the tools and calls each with arguments made from its schema, as the agent
// would; the scenario's server checks what it received.
import { launchOf } from '../../src/mcp/launch';
import { readUserServers } from '../../src/mcp/serverConfig';
import { sdkConnector } from '../../src/mcp/sdkConnector';
import { McpServers } from '../../src/mcp/servers';
import { Emitter } from '../../src/base/event';
import type { ToolContext } from '../../src/tools/tool';

/** A value of the schema's type, for a required argument. */
function sample(schema: unknown): unknown {
	const type = (schema as { type?: unknown } | undefined)?.type;
	switch (type) {
		case 'number':
		case 'integer':
			return 1;
		case 'boolean':
			return true;
		case 'array':
			return [];
		case 'object':
			return {};
		default:
			return 'conformance';
	}
}

async function main(): Promise<void> {
	const url = process.argv.at(-1) ?? '';
	const servers = new McpServers({
		source: { read: () => readUserServers({ conformance: { type: 'http', url } }), onDidChange: new Emitter<void>().event },
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: process.env, readFile: () => Promise.reject(new Error('no env files here')) }),
		approve: () => Promise.resolve(true),
		startupTimeoutMs: () => 10_000,
		requestTimeoutMs: () => 10_000,
	});
	try {
		await servers.ready(new AbortController().signal);
		const [entry] = servers.entries();
		if (entry?.state.kind !== 'connected') {
			throw new Error(`not connected: ${JSON.stringify(entry?.state)}`);
		}
		for (const tool of servers.tools()) {
			const schema = (tool.inputSchema ?? {}) as { properties?: Record<string, unknown>; required?: string[] };
			const args = Object.fromEntries((schema.required ?? []).map((name) => [name, sample(schema.properties?.[name])]));
			const result = await tool.run(args, { signal: new AbortController().signal } as unknown as ToolContext);
			process.stdout.write(`${tool.name}: ${result.content}\n`);
		}
	} finally {
		servers.dispose();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
		process.exit(1);
	},
);
