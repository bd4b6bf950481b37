// **Aside: Stop Background Processes**: ends every chat's background processes (an interrupt, then
// the end of each process tree), says how many, and answers the count (the tests call it).
import * as vscode from 'vscode';
import type { WindowContribution } from '../window/window';

/** What is said when the command has stopped `count` processes. */
function stoppedWords(count: number): string {
	return count === 0 ? 'No background process runs.' : `Stopped ${count} background process${count === 1 ? '' : 'es'}.`;
}

export const processCommands: WindowContribution = {
	name: 'background process commands',
	contribute: ({ processes }, store) => {
		store.add(
			vscode.commands.registerCommand('aside.run.stopBackgroundProcesses', async () => {
				const stopped = await processes.host.chats.stopAll();
				void vscode.window.showInformationMessage(`Aside: ${stoppedWords(stopped.length)}`);
				return stopped.length;
			}),
		);
	},
};
