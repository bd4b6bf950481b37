// The server's requests to the client through the SDK (serverRequests.ts says what they are): the
// capabilities the client declares when it has someone to answer them, and the SDK's
// `sampling/createMessage` and `elicitation/create` shapes converted to Aside's and back.
import type { Client, ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import type {
	ElicitationRequest,
	ElicitationResult,
	InFlightCallers,
	SamplingContent,
	SamplingRequest,
	SamplingResult,
	ServerRequestHandlers,
} from './serverRequests';
import { decodedBytes } from '../tools/images';

/** Sampling, and elicitation in both modes: only when someone answers them. */
export function clientCapabilities(handlers: ServerRequestHandlers | undefined): ClientCapabilities {
	return handlers ? { sampling: {}, elicitation: { form: {}, url: {} } } : {};
}

function samplingContent(block: Readonly<Record<string, unknown>>): SamplingContent {
	switch (block.type) {
		case 'text':
			return { type: 'text', text: typeof block.text === 'string' ? block.text : '' };
		case 'image':
		case 'audio':
			return { type: block.type, mimeType: typeof block.mimeType === 'string' ? block.mimeType : 'unknown', bytes: decodedBytes(typeof block.data === 'string' ? block.data : '') };
		default:
			return { type: 'other', what: typeof block.type === 'string' ? block.type : 'unknown' };
	}
}

// Sampling is deprecated from the 2026-07-28 revision (SEP-2577) but in the spec for a year yet, and servers still ask for it.
// eslint-disable-next-line @typescript-eslint/no-deprecated
export function samplingRequestOf(params: CreateMessageRequestParams): SamplingRequest {
	const hints = (params.modelPreferences?.hints ?? []).flatMap((hint) => (typeof hint.name === 'string' ? [hint.name] : []));
	return {
		messages: params.messages.map((message) => {
			const blocks = (Array.isArray(message.content) ? message.content : [message.content]) as readonly Readonly<Record<string, unknown>>[];
			return { role: message.role, content: blocks.map(samplingContent) };
		}),
		maxTokens: params.maxTokens,
		...(params.systemPrompt === undefined ? {} : { systemPrompt: params.systemPrompt }),
		...(params.temperature === undefined ? {} : { temperature: params.temperature }),
		...(params.stopSequences === undefined ? {} : { stopSequences: params.stopSequences }),
		...(hints.length === 0 ? {} : { modelHints: hints }),
	};
}

// eslint-disable-next-line @typescript-eslint/no-deprecated
export function samplingResultOf(result: SamplingResult): CreateMessageResult {
	return { role: 'assistant', content: { type: 'text', text: result.text }, model: result.model, stopReason: result.stopReason };
}

export function elicitationRequestOf(params: ElicitRequestParams): ElicitationRequest {
	if (params.mode === 'url') {
		return { mode: 'url', message: params.message, url: params.url, elicitationId: params.elicitationId };
	}
	return { mode: 'form', message: params.message, requestedSchema: params.requestedSchema };
}

export function elicitResultOf(result: ElicitationResult): ElicitResult {
	if (result.action !== 'accept') {
		return { action: result.action };
	}
	if (result.content === undefined) {
		return { action: 'accept' };
	}
	const content: Record<string, string | number | boolean | string[]> = {};
	for (const [key, value] of Object.entries(result.content)) {
		content[key] = typeof value === 'object' ? [...value] : value;
	}
	return { action: 'accept', content };
}

/** Answers the server's sampling and elicitation requests (and its elicitation completions) with `handlers`. */
export function installRequestHandlers(client: Client, handlers: ServerRequestHandlers, callers: InFlightCallers): void {
	// Cancelled by the server, or moot once the tool calls it came during have ended (Stop).
	const context = (signal: AbortSignal) => ({ signal: AbortSignal.any([signal, callers.allEnded()]), callers: callers.list() });
	client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
		const answer = await handlers.sampling(samplingRequestOf(request.params), context(ctx.mcpReq.signal));
		return samplingResultOf(answer);
	});
	client.setRequestHandler('elicitation/create', async (request, ctx) => {
		const answer = await handlers.elicitation(elicitationRequestOf(request.params), context(ctx.mcpReq.signal));
		return elicitResultOf(answer);
	});
	client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
		handlers.elicitationComplete?.(notification.params.elicitationId);
	});
}
