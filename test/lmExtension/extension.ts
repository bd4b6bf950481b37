// A test-only extension (never shipped) that provides a chat model through vscode.lm, the way
// GitHub Copilot does, backed by the scripted model server on loopback: it turns each request of
// the Language Model API into an OpenAI Chat Completions request and streams the answer back as
// LanguageModelTextPart / LanguageModelToolCallPart. It offers no model until a test points it
// at a server (`use`), so the other integration tests see the workbench as it was.
import * as vscode from 'vscode';

export const VENDOR = 'aside-scripted';
export const MODEL_ID = 'scripted-lm';
/** A window no other model in the tests has, so the context line shows it came from here. */
export const MAX_INPUT_TOKENS = 64_000;

export interface ScriptedModels {
	/** The OpenAI-compatible base URL (`http://127.0.0.1:PORT/v1`) to answer from, or undefined for no model. */
	use(baseUrl: string | undefined): void;
	/** Every count this provider answered, in order (what `provideTokenCount` returned). */
	readonly counted: number[];
}

interface WireMessage {
	role: 'user' | 'assistant' | 'tool';
	content: string | null;
	tool_call_id?: string;
	tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
}

function textOf(parts: readonly unknown[]): string {
	return parts.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** The API's messages as Chat Completions messages: tool results as `tool` messages, before the text beside them. */
function wireMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): WireMessage[] {
	const out: WireMessage[] = [];
	for (const message of messages) {
		if (message.role === vscode.LanguageModelChatMessageRole.Assistant) {
			const calls = message.content.filter((part) => part instanceof vscode.LanguageModelToolCallPart);
			out.push({
				role: 'assistant',
				content: textOf(message.content),
				...(calls.length > 0 ? { tool_calls: calls.map((call) => ({ id: call.callId, type: 'function' as const, function: { name: call.name, arguments: JSON.stringify(call.input) } })) } : {}),
			});
			continue;
		}
		for (const part of message.content) {
			if (part instanceof vscode.LanguageModelToolResultPart) {
				out.push({ role: 'tool', tool_call_id: part.callId, content: textOf(part.content) });
			}
		}
		const text = textOf(message.content);
		if (text !== '') {
			out.push({ role: 'user', content: text });
		}
	}
	return out;
}

/** What a count sees of a message: its text, tool calls and tool results. */
function countedText(text: string | vscode.LanguageModelChatRequestMessage): string {
	if (typeof text === 'string') {
		return text;
	}
	return text.content
		.map((part) => {
			if (part instanceof vscode.LanguageModelTextPart) {
				return part.value;
			}
			if (part instanceof vscode.LanguageModelToolCallPart) {
				return `${part.name}${JSON.stringify(part.input)}`;
			}
			return part instanceof vscode.LanguageModelToolResultPart ? textOf(part.content) : '';
		})
		.join('');
}

interface Chunk {
	error?: { message?: string };
	choices?: { delta?: { content?: string | null; tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[] } }[];
}

/** The server's SSE answer, event by event (`data:` payloads). */
async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
	const decoder = new TextDecoder();
	const reader = body.getReader();
	let buffered = '';
	for (;;) {
		const { done, value } = await reader.read();
		if (done) {
			return;
		}
		buffered += decoder.decode(value, { stream: true });
		let end = buffered.indexOf('\n\n');
		while (end !== -1) {
			const event = buffered.slice(0, end);
			buffered = buffered.slice(end + 2);
			for (const line of event.split('\n')) {
				if (line.startsWith('data: ')) {
					yield line.slice('data: '.length);
				}
			}
			end = buffered.indexOf('\n\n');
		}
	}
}

class ScriptedChatProvider implements vscode.LanguageModelChatProvider {
	private baseUrl: string | undefined;
	private readonly changed = new vscode.EventEmitter<void>();
	readonly onDidChangeLanguageModelChatInformation = this.changed.event;
	readonly counted: number[] = [];

	use(baseUrl: string | undefined): void {
		this.baseUrl = baseUrl;
		this.changed.fire();
	}

	provideLanguageModelChatInformation(): vscode.LanguageModelChatInformation[] {
		if (this.baseUrl === undefined) {
			return [];
		}
		return [{ id: MODEL_ID, name: 'Scripted model', family: 'scripted', version: '1', maxInputTokens: MAX_INPUT_TOKENS, maxOutputTokens: 4096, capabilities: { toolCalling: true } }];
	}

	async provideLanguageModelChatResponse(
		model: vscode.LanguageModelChatInformation,
		messages: readonly vscode.LanguageModelChatRequestMessage[],
		options: vscode.ProvideLanguageModelChatResponseOptions,
		progress: vscode.Progress<vscode.LanguageModelResponsePart>,
		token: vscode.CancellationToken,
	): Promise<void> {
		if (this.baseUrl === undefined) {
			throw new Error('The scripted model has no server.');
		}
		// Stop in the chat cancels the token: the request to the server is closed, as a real backend's would be.
		const abort = new AbortController();
		const cancelled = token.onCancellationRequested(() => {
			abort.abort();
		});
		try {
			const tools = (options.tools ?? []).map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema ?? { type: 'object' } } }));
			const response = await fetch(`${this.baseUrl}/chat/completions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					model: model.id,
					stream: true,
					messages: wireMessages(messages),
					...(tools.length > 0 ? { tools, tool_choice: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto' } : {}),
					...(typeof options.modelOptions?.max_tokens === 'number' ? { max_tokens: options.modelOptions.max_tokens } : {}),
				}),
				signal: abort.signal,
			});
			if (!response.ok || !response.body) {
				const body = (await response.json().catch(() => ({}))) as Chunk;
				throw new Error(body.error?.message ?? `The scripted server answered ${String(response.status)}.`);
			}
			const calls = new Map<number, { id: string; name: string; args: string }>();
			for await (const data of events(response.body)) {
				if (data === '[DONE]') {
					break;
				}
				const chunk = JSON.parse(data) as Chunk;
				if (chunk.error) {
					throw new Error(chunk.error.message ?? 'The scripted server sent an error.');
				}
				const delta = chunk.choices?.[0]?.delta;
				if (delta?.content) {
					progress.report(new vscode.LanguageModelTextPart(delta.content));
				}
				for (const call of delta?.tool_calls ?? []) {
					const known = calls.get(call.index) ?? { id: call.id ?? '', name: call.function?.name ?? '', args: '' };
					known.args += call.function?.arguments ?? '';
					calls.set(call.index, known);
				}
			}
			for (const call of calls.values()) {
				progress.report(new vscode.LanguageModelToolCallPart(call.id, call.name, JSON.parse(call.args === '' ? '{}' : call.args) as object));
			}
		} catch (error) {
			if (token.isCancellationRequested) {
				throw new vscode.CancellationError();
			}
			throw error;
		} finally {
			cancelled.dispose();
		}
	}

	/** Four characters a token, as a rough tokenizer would; every answer is remembered for the tests. */
	provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
		const count = Math.ceil(countedText(text).length / 4);
		this.counted.push(count);
		return Promise.resolve(count);
	}
}

export function activate(context: vscode.ExtensionContext): ScriptedModels {
	const provider = new ScriptedChatProvider();
	context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider));
	return {
		use: (baseUrl) => {
			provider.use(baseUrl);
		},
		counted: provider.counted,
	};
}
