// Grep's search in VS Code: the ripgrep binary VS Code ships, or the Node walk when it is not
// where we look (the logic lives in src/tools/ripgrepSearch.ts, unit-tested there).
import * as vscode from 'vscode';
import type { Logger } from '../base/log';
import { NodeTextSearch } from '../tools/nodeSearch';
import { findRipgrep, RipgrepTextSearch } from '../tools/ripgrepSearch';
import type { TextSearch, WorkspaceFs } from '../tools/tool';

export async function createTextSearch(fs: WorkspaceFs, log?: Logger): Promise<TextSearch> {
	const rgPath = await findRipgrep(vscode.env.appRoot);
	if (rgPath !== undefined) {
		log?.debug(`Grep uses ripgrep at ${rgPath}`);
		return new RipgrepTextSearch(rgPath);
	}
	log?.warn(`ripgrep was not found under ${vscode.env.appRoot}; Grep falls back to a slower search that ignores .gitignore.`);
	return new NodeTextSearch(fs);
}
