// The chat view: the webview the person talks to the agent in, connected to the window's sessions,
// agent, setup, notices and forks.
import * as vscode from 'vscode';
import { deleteChat } from '../../agent/chatDeletion';
import { AgentPresenter } from '../../view/agentView';
import { featureMentionKinds, featureViewParts } from '../../features/features';
import { contributedOffers } from '../../mentions/kinds';
import { SetupPresenter } from '../../view/setupView';
import { CHAT_VIEW_ID, ChatViewProvider, workbenchActions } from '../chatView';
import { workspaceMentionCandidates } from '../mentionPorts';
import { vscodeUserRules } from '../userRules';
import { vscodeImageSources } from '../imageFiles';
import type { WindowContribution } from './window';

export const chatView: WindowContribution = {
	name: 'chat view',
	contribute: (window, store) => {
		const { context, sessions, projections, configuration, agent, setup, notices, forks, skills, checkpoints, log } = window;

		const { mcp, processes } = window;
		const services = {
			forks, mcp: mcp.servers, mcpGate: mcp.gate, mcpPrompts: mcp.prompts, mcpControl: mcp.control, mcpRequests: mcp.requests, processes: processes.host,
			images: vscodeImageSources(() => agent.state.provider),
		};
		// The chat features' view parts (src/features/features.ts): their messages are routed to them by prefix.
		const features = featureViewParts({
			sessions,
			features: agent.features,
			approvedPlans: agent.approvedPlans,
			onDidChange: agent.onDidChange,
			workbench: workbenchActions,
			services,
			log,
		}).map((part) => store.add(part));
		// The features' kinds of mention (`@mcp:`) offer their options in the composer's `@` list.
		const mentionKinds = featureMentionKinds(services);

		const provider = store.add(
			new ChatViewProvider(
				context.extensionUri,
				{
					sessions,
					projections,
					settings: configuration.view,
					agent: new AgentPresenter(agent),
					setup: new SetupPresenter(setup),
					features,
					notices,
					userRules: vscodeUserRules,
					deleteChat: (id) => deleteChat(id, { sessions, running: () => agent.isRunning, checkpoints, log }),
					mentionCandidates: workspaceMentionCandidates,
					mentionOffers: (query, signal) => contributedOffers(mentionKinds, query, signal, log),
					skillCandidates: () => skills.current().map(({ name, description }) => ({ name, description })),
					log,
				},
			),
		);
		store.add(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider));
		window.chatView.provider = provider;
	},
};
