// Reading provider streams in tests: what a stream yielded and the typed error it ended with.
import assert from 'node:assert/strict';
import { ProviderError, type StreamEvent } from '../providers/provider';

export const READ_TOOL = { name: 'Read', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } };

export interface Outcome {
	readonly events: StreamEvent[];
	readonly error?: ProviderError;
}

/** Everything a stream yielded, and the ProviderError it ended with, if any. */
export async function run(stream: AsyncIterable<StreamEvent>, onEvent?: (event: StreamEvent) => void): Promise<Outcome> {
	const events: StreamEvent[] = [];
	try {
		for await (const event of stream) {
			events.push(event);
			onEvent?.(event);
		}
		return { events };
	} catch (error) {
		assert.ok(error instanceof ProviderError, `a ProviderError, not ${String(error)}`);
		return { events, error };
	}
}

export function textOf(events: readonly StreamEvent[]): string {
	return events.map((event) => (event.type === 'text' ? event.text : '')).join('');
}
