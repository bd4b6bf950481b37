// Opening the file (at its lines) or revealing the folder a user row's chip names: only inside
// the workspace folders, links followed (src/view/mentionTarget.ts decides the candidates).
import { realpath, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { LineRange } from '../mentions/parse';
import { insideRealRoots, mentionTargets } from '../view/mentionTarget';
import { workspaceRoots } from './toolHost';

async function realOrUndefined(path: string): Promise<string | undefined> {
	try {
		return await realpath(path);
	} catch {
		return undefined;
	}
}

/** Resolves with why nothing was opened, or undefined once it is shown. */
export async function openMention(path: string, range: LineRange | undefined): Promise<string | undefined> {
	const roots = workspaceRoots();
	const targets = mentionTargets(path, roots);
	if (typeof targets === 'string') {
		return targets;
	}
	const realRoots = await Promise.all(roots.map(async (root) => (await realOrUndefined(root)) ?? root));
	for (const target of targets) {
		const real = await realOrUndefined(target);
		if (real === undefined) {
			continue;
		}
		if (!insideRealRoots(real, realRoots)) {
			return `${path} leads outside the workspace folders (a symbolic link): the chat opens only files inside them.`;
		}
		const uri = vscode.Uri.file(target);
		if ((await stat(real)).isDirectory()) {
			await vscode.commands.executeCommand('revealInExplorer', uri);
			return undefined;
		}
		const selection = range ? new vscode.Range(range.start - 1, 0, range.end - 1, 0) : undefined;
		await vscode.window.showTextDocument(uri, { preview: true, ...(selection ? { selection } : {}) });
		return undefined;
	}
	return `${path} is not in the workspace folders (it may have been moved or deleted).`;
}
