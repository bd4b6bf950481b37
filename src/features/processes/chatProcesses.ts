// One chat's processes (docs/tools.md, "Where commands run"): its background processes (p1, p2 …,
// started by Run with background: true) and what the model is told of them (processNews.ts), and
// its shell for foreground Run — one terminal named "Aside", reused so `cd` and `export` carry over.
// Only the root loop reaches them: a sub-agent's Run starts a child process of its own, and it has
// no RunOutput or RunStop. A command that ran outside the terminal says why once per chat and reason
// (`run.shell-integration`).
import type { FeatureChat, FeatureState } from '../../agent/chatFeature';
import { DisposableStore } from '../../base/lifecycle';
import { BackgroundProcesses } from '../../terminal/backgroundProcesses';
import type { ProcessHost } from '../../terminal/processHost';
import { FALLBACK_WORDS, type FallbackReason } from '../../terminal/shellExecution';
import { anyOf, type FeatureAccess, grant } from '../../tools/featureAccess';
import { CHAT_SHELL, type ChatShell, PROCESS_ACCESS } from '../../tools/processAccess';
import type { ToolNotice } from '../../tools/tool';
import { ROOT_OWNER_PATH } from '../../vocabulary/tasks';
import { ProcessNews } from './processNews';
import { RUN_BACKGROUND_EXIT, RUN_SHELL_INTEGRATION } from './processReminders';

export class ChatProcesses implements FeatureState {
	private readonly store = new DisposableStore();
	readonly processes: BackgroundProcesses;
	private readonly shell: ChatShell;
	private readonly toldFallbacks = new Set<FallbackReason>();
	private readonly isEnabled: (type: string) => boolean;

	constructor(chat: FeatureChat, host: ProcessHost) {
		this.isEnabled = (type) => chat.session.reminders.config.isEnabled(type);
		this.processes = this.store.add(
			new BackgroundProcesses(host.launcher, {
				outputPath: (id) => host.outputPath(`process-${id}`),
				now: () => chat.clock.now(),
				file: (path) => host.file(path),
			}),
		);
		this.store.add(host.chats.add({ chatId: chat.session.id, processes: this.processes }));
		const news = new ProcessNews(this.processes, () => chat.clock.now());
		const { roster } = chat.session.reminders;
		if (!roster.has(RUN_BACKGROUND_EXIT.type)) {
			roster.register(news.exitDefinition());
			roster.register(news.outputDefinition());
			roster.register(news.stuckDefinition());
			roster.register(news.runningDefinition());
		}
		const runner = this.store.add(host.foreground());
		this.shell = { runner, fallbackNotice: (reason) => this.fallbackNotice(reason) };
	}

	private fallbackNotice(reason: FallbackReason): ToolNotice | undefined {
		if (this.toldFallbacks.has(reason) || !this.isEnabled(RUN_SHELL_INTEGRATION.type)) {
			return undefined;
		}
		this.toldFallbacks.add(reason);
		return { key: RUN_SHELL_INTEGRATION.key, body: `This ran outside VS Code's terminals: ${FALLBACK_WORDS[reason]}. (Said once in this chat.)` };
	}

	toolAccess(owner: string): FeatureAccess {
		return owner === ROOT_OWNER_PATH ? anyOf([grant(PROCESS_ACCESS, this.processes), grant(CHAT_SHELL, this.shell)]) : anyOf([]);
	}

	dispose(): void {
		this.store.dispose();
	}
}
