// The LSP tool's access to the window's language features (src/tools/lsp.ts, docs/tools.md "LSP"):
// the window hands them to the features as `languageFeatures` (src/vscode/languageFeatures.ts), and
// this feature grants them to every loop of every chat under LANGUAGE_FEATURES. It keeps no state
// of its own: the language features are the editor's.
import type { AgentFeature, FeatureState } from '../../agent/chatFeature';
import { type FeatureAccess, grant } from '../../tools/featureAccess';
import { LANGUAGE_FEATURES, type LanguageFeatures } from '../../tools/lsp/port';
import type { ChatFeature } from '../feature';

declare module '../../agent/chatFeature' {
	interface FeatureServices {
		/** The editor's language features (definitions, references, symbols, diagnostics, rename); absent where there are none. */
		readonly languageFeatures?: LanguageFeatures;
	}
}

const NOTHING: FeatureAccess = { get: () => undefined };

export const LSP_STATE: AgentFeature<FeatureState> = {
	id: 'lsp',
	open: (chat) => {
		const features = chat.services.languageFeatures;
		const access = features ? grant(LANGUAGE_FEATURES, features) : NOTHING;
		return { toolAccess: () => access };
	},
};

export const LSP: ChatFeature = {
	id: 'lsp',
	agent: LSP_STATE,
};
