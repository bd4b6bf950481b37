// What a server sent, as Aside keeps it: content blocks and prompts taken from the wire's JSON
// (sdkConnector.ts hands them over as the SDK parsed them). Pure, so the one module that speaks the
// SDK stays about the connection.
import type { McpContent, McpPromptInfo, McpPromptResult } from './session';

type Wire = Readonly<Record<string, unknown>>;

function stringOf(block: Wire, key: string): string | undefined {
	return typeof block[key] === 'string' ? block[key] : undefined;
}

/** One block of a tool's result, a resource's contents or a prompt's message. */
export function contentOf(block: Wire): McpContent {
	const text = (key: string) => stringOf(block, key);
	switch (block.type) {
		case 'text':
			return { type: 'text', text: text('text') ?? '' };
		case 'image':
		case 'audio':
			return { type: block.type, data: text('data') ?? '', mimeType: text('mimeType') ?? 'application/octet-stream' };
		case 'resource': {
			const resource = (block.resource ?? {}) as Wire;
			const field = (key: string) => (typeof resource[key] === 'string' ? { [key]: resource[key] } : {});
			return { type: 'resource', uri: typeof resource.uri === 'string' ? resource.uri : '', ...field('mimeType'), ...field('text'), ...field('blob') };
		}
		case 'resource_link':
			return {
				type: 'resource_link',
				uri: text('uri') ?? '',
				name: text('name') ?? text('uri') ?? '',
				...(text('description') === undefined ? {} : { description: text('description') }),
				...(text('mimeType') === undefined ? {} : { mimeType: text('mimeType') }),
			};
		default:
			return { type: 'text', text: `[a content block of type ${JSON.stringify(block.type)} Aside does not show]` };
	}
}

/** A `prompts/list` entry. */
export function promptOf(prompt: Wire): McpPromptInfo {
	const title = stringOf(prompt, 'title');
	const description = stringOf(prompt, 'description');
	const declared = Array.isArray(prompt.arguments) ? (prompt.arguments as Wire[]) : [];
	return {
		name: stringOf(prompt, 'name') ?? '',
		...(title === undefined ? {} : { title }),
		...(description === undefined ? {} : { description }),
		arguments: declared.flatMap((argument) => {
			const name = stringOf(argument, 'name');
			const about = stringOf(argument, 'description');
			return name === undefined ? [] : [{ name, ...(about === undefined ? {} : { description: about }), required: argument.required === true }];
		}),
	};
}

/** A `prompts/get` result: each message's role and its one content block. */
export function promptResultOf(result: Wire): McpPromptResult {
	const description = stringOf(result, 'description');
	const messages = Array.isArray(result.messages) ? (result.messages as Wire[]) : [];
	return {
		...(description === undefined ? {} : { description }),
		messages: messages.map((message) => ({
			role: message.role === 'assistant' ? 'assistant' : 'user',
			content: contentOf((message.content ?? {}) as Wire),
		})),
	};
}
