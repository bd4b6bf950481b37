// The images feature's window side (src/features/images/): reading an image file the person
// attached — a workspace path from the `@` list (only inside the workspace folders, links followed),
// or a `file:` URI dragged from VS Code's explorer (theirs to give) — and the bound of the provider
// the next message goes to.
import { open, realpath } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { ANTHROPIC_IMAGE_LIMITS, type ImageLimits, LM_IMAGE_LIMITS, OPENAI_IMAGE_LIMITS } from '../providers/imageParts';
import { formatBytes } from '../tools/text';
import type { ImageSources } from '../view/imageUploads';
import { insideRealRoots, mentionTargets } from '../view/mentionTarget';
import { workspaceRoots } from './toolHost';

const LIMITS: Readonly<Record<string, ImageLimits>> = { 'anthropic': ANTHROPIC_IMAGE_LIMITS, 'openai-compatible': OPENAI_IMAGE_LIMITS, 'vscode-lm': LM_IMAGE_LIMITS };

/** Up to `limit` bytes of the file (a longer one is refused by its size, never read whole). */
async function readBounded(path: string, limit: number): Promise<Uint8Array> {
	const handle = await open(path, 'r');
	try {
		const { size } = await handle.stat();
		if (size >= limit) {
			throw new Error(`it is ${formatBytes(size)}, over the ${formatBytes(limit - 1)} an image may have`);
		}
		const buffer = Buffer.alloc(size);
		await handle.read(buffer, 0, size, 0);
		return buffer;
	} finally {
		await handle.close();
	}
}

async function workspacePath(file: string): Promise<string> {
	if (/^file:/iu.test(file)) {
		return vscode.Uri.parse(file, true).fsPath;
	}
	const roots = workspaceRoots();
	const targets = mentionTargets(file, roots);
	if (typeof targets === 'string') {
		throw new Error(targets);
	}
	const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => root)));
	for (const target of targets) {
		const real = await realpath(target).catch(() => undefined);
		if (real !== undefined) {
			if (!insideRealRoots(real, realRoots)) {
				throw new Error('it leads outside the workspace folders (a symbolic link)');
			}
			return real;
		}
	}
	throw new Error('there is no such file in the workspace folders');
}

export function vscodeImageSources(provider: () => string): ImageSources {
	return {
		readFile: async (file, limit) => {
			const path = await workspacePath(file);
			return { name: basename(path), bytes: await readBounded(path, limit) };
		},
		limits: () => LIMITS[provider()],
	};
}
