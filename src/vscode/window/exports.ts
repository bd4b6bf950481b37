// What activate() returns: the public API (src/api.ts), and the test hooks beside it when the
// integration tests ask for them. Not a contribution: without it activation has nothing to return.
import type { AsideExports } from '../../extension';
import { testHooks } from '../testHooks';
import { mcpTestHooks } from '../mcp/mcpTestHooks';
import type { AsideWindow } from './window';

export function windowExports(window: AsideWindow, env: NodeJS.ProcessEnv = process.env): AsideExports {
	const { api, forks, worktrees, agent, sessions } = window;
	const hooks = testHooks(env, {
		forks: { fork: (from, worktree) => forks.fork(from, worktree), inWorktree: (from, choice) => worktrees.make(from, agent.runningTurn(sessions.current.id), choice, 'here') },
		checkpointsKept: window.checkpointsKept,
		sessions,
		sessionsDir: window.sessionsDir,
		projections: window.projections,
		agent,
		observers: window.observers,
		configuration: window.configuration,
		reminderConfig: window.reminderConfig,
		keys: window.keys,
		gate: window.gate,
		review: window.review,
		agentProfiles: window.agentProfiles,
		profiles: window.profiles,
		skills: window.skills,
		workspaceReminders: window.workspaceReminders,
		workspaceReminderFiles: window.workspaceReminderFiles,
		checkpoints: window.checkpoints,
	});
	return hooks ? { ...api, ...hooks, mcp: mcpTestHooks(window.mcp, window.context.secrets) } : api;
}
