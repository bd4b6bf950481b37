// The VS Code Language Model API as a ChatProvider: whatever chat models the person already has
// in VS Code, with no key to configure. The API has no system role, so the system prompt goes
// as the first user message; tool calls and results use its own part classes.
import * as vscode from 'vscode';
import type { ChatMessage } from '../providers/messages';
import { type ChatProvider, type ChatRequest, type ModelInfo, ProviderError, type StreamEvent } from '../providers/provider';

function toLmMessages(system: string, messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
	const out: vscode.LanguageModelChatMessage[] = [vscode.LanguageModelChatMessage.User(system)];
	// Adjacent user-role content (tool results, reminders, the user's text) is merged into one
	// message with the results first, as tool-calling models expect.
	let pendingUser: (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[] = [];
	const flush = (): void => {
		if (pendingUser.length > 0) {
			const results = pendingUser.filter((part) => part instanceof vscode.LanguageModelToolResultPart);
			const texts = pendingUser.filter((part) => part instanceof vscode.LanguageModelTextPart);
			out.push(vscode.LanguageModelChatMessage.User([...results, ...texts]));
			pendingUser = [];
		}
	};
	for (const message of messages) {
		if (message.role === 'tool') {
			pendingUser.push(new vscode.LanguageModelToolResultPart(message.callId, [new vscode.LanguageModelTextPart(message.content)]));
		} else if (message.role === 'user') {
			for (const part of message.content) {
				pendingUser.push(
					part.type === 'text' ? new vscode.LanguageModelTextPart(part.text) : new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.content)]),
				);
			}
		} else {
			flush();
			const parts = message.content.flatMap((part): (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] => {
				if (part.type === 'text') {
					return part.text === '' ? [] : [new vscode.LanguageModelTextPart(part.text)];
				}
				const input = typeof part.input === 'object' && part.input !== null ? part.input : {};
				return [new vscode.LanguageModelToolCallPart(part.id, part.name, input)];
			});
			if (parts.length > 0) {
				out.push(vscode.LanguageModelChatMessage.Assistant(parts));
			}
		}
	}
	flush();
	return out;
}

function providerErrorOf(error: unknown, signal: AbortSignal): ProviderError {
	if (signal.aborted || error instanceof vscode.CancellationError) {
		return new ProviderError('cancelled', 'The request was cancelled.');
	}
	if (error instanceof vscode.LanguageModelError) {
		// The codes are the names of the static constructors: NoPermissions, Blocked, NotFound.
		const kind = error.code === 'NoPermissions' ? 'auth' : error.code === 'Blocked' ? 'rate-limit' : 'bad-request';
		return new ProviderError(kind, `The VS Code language model refused the request (${error.code}): ${error.message}`, { cause: error });
	}
	return new ProviderError('server', error instanceof Error ? error.message : String(error), { cause: error });
}

export class LanguageModelProvider implements ChatProvider {
	readonly id = 'vscode-lm' as const;

	constructor(private readonly model: vscode.LanguageModelChat) {}

	async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
		const source = new vscode.CancellationTokenSource();
		const onAbort = (): void => {
			source.cancel();
		};
		signal.addEventListener('abort', onAbort, { once: true });
		try {
			let response: vscode.LanguageModelChatResponse;
			try {
				response = await this.model.sendRequest(
					toLmMessages(request.system, request.messages),
					{
						justification: 'Aside sends your message, with the files and reminders shown in its chat, to this model.',
						tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
						toolMode: vscode.LanguageModelChatToolMode.Auto,
						modelOptions: { max_tokens: request.maxOutputTokens },
					},
					source.token,
				);
			} catch (error) {
				throw providerErrorOf(error, signal);
			}
			yield { type: 'accepted' };
			let calls = 0;
			try {
				for await (const part of response.stream) {
					if (part instanceof vscode.LanguageModelTextPart) {
						yield { type: 'text', text: part.value };
					} else if (part instanceof vscode.LanguageModelToolCallPart) {
						calls++;
						yield { type: 'tool-call', id: part.callId, name: part.name, input: part.input };
					}
				}
			} catch (error) {
				throw providerErrorOf(error, signal);
			}
			yield { type: 'stop', reason: calls > 0 ? 'tool-use' : 'end' };
		} finally {
			signal.removeEventListener('abort', onAbort);
			source.dispose();
		}
	}

	listModels(): Promise<readonly ModelInfo[]> {
		return Promise.resolve([{ id: this.model.id, name: this.model.name, contextWindow: this.model.maxInputTokens }]);
	}
}

/** The chat models VS Code offers now. */
export async function languageModels(): Promise<readonly vscode.LanguageModelChat[]> {
	return vscode.lm.selectChatModels();
}
