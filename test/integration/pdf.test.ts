// PDFs in the real extension host: the bundled pdf.js (no worker file, no DOM) reading PDFs the
// test writes into the workspace, for the agent's Read and for `@file.pdf`, onto the payloads the
// scripted model server received.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { pdfBytes } from '../../src/testing/pdfFixture';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, toolResult, useScriptedServer, workspaceFile } from './support';

function lastMessage(request: ReceivedRequest | undefined): string {
	return messagesOf(request).at(-1)?.content ?? '';
}

describe('PDFs, with a scripted model server', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;
	const files = ['brief.pdf', 'manual.pdf'];

	before(async () => {
		writeFileSync(workspaceFile('brief.pdf').fsPath, pdfBytes(['Quarterly brief', 'Revenue rose by (about) ten percent']));
		writeFileSync(workspaceFile('manual.pdf').fsPath, pdfBytes(Array.from({ length: 14 }, (_, i) => `Manual chapter ${i + 1}`)));
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'auto-edit' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
		for (const file of files) {
			rmSync(workspaceFile(file).fsPath, { force: true });
		}
	});

	it('Read returns a PDF\'s page text, and a large PDF\'s first pages with the read.pdf-pages notice', async () => {
		const { api } = await activeAside();
		server.script(
			{ toolCalls: [{ id: 'call_pdf_1', name: 'Read', input: { path: 'brief.pdf' } }] },
			{ toolCalls: [{ id: 'call_pdf_2', name: 'Read', input: { path: 'manual.pdf' } }] },
			{ toolCalls: [{ id: 'call_pdf_3', name: 'Read', input: { path: 'manual.pdf', pages: '12-14' } }] },
			{ text: 'Read them.' },
		);
		assert.equal((await api.sendMessage('Read the PDFs.')).outcome, 'done');
		assert.equal(toolResult(server, 'call_pdf_1'), '--- page 1 ---\nQuarterly brief\n\n--- page 2 ---\nRevenue rose by (about) ten percent');
		const large = toolResult(server, 'call_pdf_2');
		assert.match(large, /^--- page 1 ---\nManual chapter 1\n/);
		assert.match(large, /--- page 10 ---\nManual chapter 10\n\n<system-reminder key="read\.pdf-pages">\nmanual\.pdf has 14 pages; this shows pages 1–10\. Prefer bounded reads: call Read with pages: "11-14"/);
		assert.doesNotMatch(large, /Manual chapter 11/);
		assert.equal(toolResult(server, 'call_pdf_3'), '--- page 12 ---\nManual chapter 12\n\n--- page 13 ---\nManual chapter 13\n\n--- page 14 ---\nManual chapter 14');
	});

	it('@file.pdf attaches the PDF\'s text as mention.file', async () => {
		const { api } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		server.script({ text: 'Seen.' });
		assert.equal((await api.sendMessage('Summarise @brief.pdf')).outcome, 'done');
		const request = chatRequests(server).at(-1);
		assert.equal(messagesOf(request).at(-2)?.content, 'Summarise @brief.pdf', 'the message as typed');
		assert.match(lastMessage(request), /^<system-reminder key="mention\.file">\nThe user mentioned the PDF brief\.pdf \(pages 1–2 of 2\)\. Its text, as of this message:\n\n```\n--- page 1 ---\nQuarterly brief\n/);
	});
});
