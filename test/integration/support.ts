// Helpers for the suite inside the extension host: the extension under test, and requests to
// the browser-side driver (see test/harness/integration.mjs).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AsideApi } from '../../src/api';
import type { AsideExports } from '../../src/extension';
import type { AsideTestHooks } from '../../src/vscode/testHooks';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';

export const EXTENSION_ID = 'aside-dev.aside';

/** Written by session.test.ts before the window reload, read by session.reload.test.ts after it. */
export const RELOAD_NOTE = 'reload-session.json';

/** The bodies of the `key` blocks in `text`, in order, as sent (escaped). */
export function reminderBodies(text: string, key: string): string[] {
	const pattern = new RegExp(`<system-reminder key="${key.replaceAll('.', '\\.')}">\\n([\\s\\S]*?)\\n</system-reminder>`, 'g');
	return [...text.matchAll(pattern)].map((match) => match[1] ?? '');
}
/** What processes.test.ts leaves for terminalProcesses.reload.test.ts: the chat with a process running, and the file it writes. */
export const PROCESSES_RELOAD_NOTE = 'reload-processes.json';
/** That chat's first message, so its title in the chat list. */
export const PROCESSES_RELOAD_TITLE = 'Keep a heartbeat running across the reload.';

export async function activeAside(): Promise<{ extension: vscode.Extension<AsideExports>; api: AsideApi; hooks: AsideTestHooks }> {
	const extension = vscode.extensions.getExtension<AsideExports>(EXTENSION_ID);
	assert.ok(extension, `${EXTENSION_ID} is not installed in the extension host`);
	const exports = await extension.activate();
	assert.ok(exports.currentSessionItems, 'the extension exports its test hooks when ASIDE_TEST_HOOKS=1');
	return { extension, api: exports, hooks: exports as AsideTestHooks };
}

/** The Chromium-side driver exists in the code-server tier only (not under test-electron). */
export const hasDriver = process.env.ASIDE_DRIVER_DIR !== undefined;

/** Asks the Chromium-side driver to act in the workbench and waits for its answer. */
export async function driver<T = Record<string, unknown>>(action: string, args: Record<string, unknown> = {}, timeoutMs = 90_000): Promise<T> {
	const dir = process.env.ASIDE_DRIVER_DIR;
	assert.ok(dir, 'ASIDE_DRIVER_DIR is set by the integration harness');
	// Unique across test files: each is bundled on its own, so a module counter would repeat ids
	// and read an earlier request's answer.
	const id = `${process.pid}-${randomUUID()}`;
	console.log(`[aside-driver] ${JSON.stringify({ id, action, args })}`);
	const file = join(dir, `${id}.json`);
	const deadline = Date.now() + timeoutMs;
	while (!existsSync(file)) {
		if (Date.now() > deadline) {
			throw new Error(`the driver did not answer ${action} within ${timeoutMs / 1000} s`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	const response = JSON.parse(readFileSync(file, 'utf8')) as { ok: true; details: T } | { ok: false; error: string };
	if (!response.ok) {
		throw new Error(`driver ${action} failed: ${response.error}`);
	}
	return response.details;
}

export interface ChatReading {
	readonly title: string | null;
	readonly userTexts: string[];
	readonly emptyState: string | null;
	/** The empty state's setup buttons, in order. */
	readonly actions: string[];
	readonly placeholder: string | null;
	/** The line saying the chat is read-only here or a copy, when shown. */
	readonly access: string | null;
	/** The notices shown above the composer (the newest three), their text. */
	readonly notices: string[];
}

/** The driver's `readAgents`: the top-level rows (`kind:id`) and each child's header row, with its own rows when expanded. */
export interface AgentsReading {
	readonly top: string[];
	readonly agents: { path: string; label: string; expanded: boolean; status: string; rows: string[]; reminderKeys: string[] }[];
}

/** The driver's `readTasks`: the task panel above the composer. */
export interface TasksReading {
	readonly shown: boolean;
	readonly summary: string;
	readonly rows: { id: string; status: string; title: string; owner: string | null }[];
}

/** A message of an OpenAI-compatible request body, as the scripted server received it. */
export interface OpenAIMessage {
	readonly role: string;
	readonly content?: string | null;
	readonly tool_call_id?: string;
}

/** The chat requests (OpenAI-compatible) the scripted server received, in order. */
export function chatRequests(server: { readonly requests: readonly ReceivedRequest[] }): ReceivedRequest[] {
	return server.requests.filter((request) => request.path.endsWith('/chat/completions'));
}

/** The messages of an OpenAI-compatible request body. */
export function messagesOf(request: ReceivedRequest | undefined): OpenAIMessage[] {
	return ((request?.body ?? {}) as { messages?: OpenAIMessage[] }).messages ?? [];
}

/** The parsed lines of a session's transcript on disk. */
/** What the model was told a tool call returned, from the request that followed it. */
export function toolResult(server: { readonly requests: readonly ReceivedRequest[] }, callId: string): string {
	for (const request of chatRequests(server)) {
		const message = messagesOf(request).find((candidate) => candidate.role === 'tool' && candidate.tool_call_id === callId);
		if (message) {
			return message.content ?? '';
		}
	}
	throw new Error(`no request carried the result of ${callId}`);
}

export function transcriptLines(dir: string, sessionId: string): { kind: string; [key: string]: unknown }[] {
	const file = join(dir, `${sessionId}.jsonl`);
	assert.ok(existsSync(file), `the transcript ${file} exists`);
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => JSON.parse(line) as { kind: string });
}

export function workspaceFile(relative: string): vscode.Uri {
	const folder = vscode.workspace.workspaceFolders?.[0];
	assert.ok(folder, 'the fixture workspace is open');
	return vscode.Uri.joinPath(folder.uri, relative);
}

/** Polls `read` until `done` holds; throws naming `what` after `timeoutMs`. */
export async function until<T>(read: () => T, done: (value: T) => boolean, what = 'a condition', timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = read();
		if (done(value)) {
			return value;
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

export interface ScriptedProvider {
	readonly provider: 'anthropic' | 'openai-compatible';
	readonly model: string;
	/** `aside.permissions.mode` for the tests, when they need one. */
	readonly mode?: 'ask' | 'auto-edit' | 'plan' | 'full-access';
	/** A key stored for the server's origin (Anthropic needs one). */
	readonly apiKey?: string;
}

/**
 * Points Aside's user settings at a scripted model server (the Anthropic API at its root, an
 * OpenAI-compatible one at `/v1`) and stores the key for its origin; returns what undoes it all.
 */
export async function useScriptedServer(server: { readonly url: string }, scripted: ScriptedProvider): Promise<() => Promise<void>> {
	const { hooks } = await activeAside();
	const aside = vscode.workspace.getConfiguration('aside');
	const global = vscode.ConfigurationTarget.Global;
	if (scripted.apiKey !== undefined) {
		await hooks.storeApiKey(scripted.provider, server.url, scripted.apiKey);
	}
	await aside.update('provider', scripted.provider, global);
	await aside.update('baseUrl', scripted.provider === 'anthropic' ? server.url : `${server.url}/v1`, global);
	await aside.update('model', scripted.model, global);
	if (scripted.mode !== undefined) {
		await aside.update('permissions.mode', scripted.mode, global);
	}
	return async () => {
		for (const key of ['provider', 'baseUrl', 'model', ...(scripted.mode === undefined ? [] : ['permissions.mode'])]) {
			await aside.update(key, undefined, global);
		}
		if (scripted.apiKey !== undefined) {
			await hooks.storeApiKey(scripted.provider, server.url, undefined);
		}
	};
}

interface AnthropicBlock {
	readonly type: string;
	readonly text?: string;
	readonly content?: unknown;
}

/** Everything the model read in the last (user) message of a request, blocks joined. */
export function lastUserText(request: ReceivedRequest | undefined): string {
	const body = request?.body as { messages?: { role: string; content: AnthropicBlock[] }[] } | undefined;
	const last = body?.messages?.at(-1);
	assert.equal(last?.role, 'user');
	return last.content.map((block) => (block.type === 'text' ? (block.text ?? '') : typeof block.content === 'string' ? block.content : JSON.stringify(block.content))).join('\n\n');
}

export interface McpChat {
	readonly server: ModelServer;
	readonly close: () => Promise<void>;
}

/**
 * A scripted Anthropic model server for the chat in `mode`, and a new chat (in view where the browser
 * driver runs); `close` undoes it. `before` runs once the settings point at the server, before the chat opens.
 */
export async function useScriptedChat(mode: NonNullable<ScriptedProvider['mode']>, apiKey: string, before?: () => Promise<void>): Promise<McpChat> {
	const server = await startModelServer({ models: ['claude-scripted'] });
	const restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', mode, apiKey });
	await before?.();
	await vscode.commands.executeCommand('aside.newChat');
	if (hasDriver) {
		await vscode.commands.executeCommand('aside.focusChat');
		await driver('readChat');
	}
	return {
		server,
		close: async () => {
			await restore();
			await server.close();
		},
	};
}

/** The MCP test files' set-up: useScriptedChat in Ask mode with `servers` as aside.mcp.servers; `close` undoes both. */
export async function useMcpChat(servers: Record<string, unknown>, apiKey: string): Promise<McpChat> {
	const global = vscode.ConfigurationTarget.Global;
	const mcp = () => vscode.workspace.getConfiguration('aside.mcp');
	const chat = await useScriptedChat('ask', apiKey, () => Promise.resolve(mcp().update('servers', servers, global)));
	return {
		server: chat.server,
		close: async () => {
			await mcp().update('servers', undefined, global);
			await chat.close();
		},
	};
}
