// TerminalText on a recorded zsh session: each command's output between VS Code's shell
// integration marks (OSC 633 C and D), cleaned, as the bash session is in terminalText.spec.ts.
//
// The fixture (test/fixtures/terminal/zsh-integration.bin, 3334 bytes) is every byte a terminal
// received from zsh 5.9 (Debian 12 package 5.9-4+b15, run as root: the prompt is `vm# ` and
// zsh's PROMPT_EOL_MARK shows `#`, where a user's shows `%`), TERM=xterm-256color, LANG=C.UTF-8,
// an 80x24 pty. VS Code's zsh shell integration is injected as VS Code injects it: the pinned
// code-server's shellIntegration-rc.zsh, -profile.zsh, -env.zsh and -login.zsh (in
// .tools/code-server/node_modules/code-server/lib/vscode/out/vs/workbench/contrib/terminal/common/scripts)
// copied to a fresh ZDOTDIR as .zshrc, .zprofile, .zshenv and .zlogin; ZDOTDIR set to it,
// USER_ZDOTDIR and HOME to a fresh home with no startup files of its own, VSCODE_INJECTION=1, no
// VSCODE_NONCE; `zsh -i` started in that home under a python3 `pty`, each command typed (followed
// by CR) once the prompt's B mark has come and the shell is quiet: `cd fx` (fx holds README.md,
// run.sh executable and src/), `printf 'plain line\r\n'`, `ls --color=always`, a `for` loop
// printing `\rDownloading N%` three times then `\r\033[KDone.\n`, `printf 'tab\there and  unicode:
// café ✓\n'`, `printf '\033[32mgreen\033[0m\n'`, `printf 'no newline'`, `(exit 3)`, `exit`.
// The recorder is in test/fixtures/terminal/README.md; run from the repository root, it gives
// these bytes again exactly.
//
// zsh writes its PROMPT_SP before the precmd hook that writes the D mark, so it is in every
// command's output as the shell integration API reads it: the mark (`#` or `%`, bold reverse),
// COLUMNS - 1 spaces, then CR, space, CR. On an 80-column terminal those spaces exactly fill the
// line when the output ended in a newline (the CR and space then erase the mark), and wrap to a new
// line when it did not (the mark stays after the output). TerminalText has no width to tell the two
// apart: it recognises the PROMPT_SP and leaves the line as it was before the mark.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanedInChunks, commandOutputs, recordedSession } from '../testing/terminalSessions';
import { terminalText } from './terminalText';

const ZSH = recordedSession('zsh-integration.bin');

/** zsh's PROMPT_SP at the end of an output: the PROMPT_EOL_MARK, the spaces to the last column, CR, space, CR. */
// eslint-disable-next-line no-control-regex -- the mark is written with escape sequences
const PROMPT_SP = /\u001b\[1m\u001b\[7m[#%]\u001b\[27m\u001b\[1m\u001b\[0m +\r \r$/u;

/** What each command wrote, as the terminal showed it. */
const EXPECTED = [
	'',
	'plain line',
	'README.md  run.sh  src',
	'Done.',
	'tab\there and  unicode: café ✓',
	'green',
	'no newline',
	'',
];

describe('terminal output as text: a recorded zsh session', () => {
	it('has the shell integration marks: a C and a D around each command but the last (exit)', () => {
		assert.equal(ZSH.split('\u001b]633;C\u0007').length - 1, 9);
		// eslint-disable-next-line no-control-regex -- the shell integration marks are escape sequences
		assert.deepEqual([...ZSH.matchAll(/\u001b\]633;D(?:;(\d+))?\u0007/gu)].map((match) => match[1]), [undefined, '0', '0', '0', '0', '0', '0', '0', '3']);
		assert.equal(commandOutputs(ZSH).length, EXPECTED.length);
		assert.ok(commandOutputs(ZSH).every((output) => PROMPT_SP.test(output)), 'zsh ends every output with its PROMPT_SP');
	});

	it('cleans each command\'s output once zsh\'s PROMPT_SP is cut from its end: colours, CRLF, progress folded, tabs and UTF-8', () => {
		assert.deepEqual(commandOutputs(ZSH).map((output) => terminalText(output.replace(PROMPT_SP, ''))), EXPECTED);
	});

	it('cleans each command\'s output as the API reads it, PROMPT_SP and all, to what the command wrote', () => {
		assert.deepEqual(commandOutputs(ZSH).map(terminalText), EXPECTED);
	});

	it('takes only a whole PROMPT_SP for one: a reverse-video # in text, or a CR after it that writes something else, is rendered as a terminal would', () => {
		assert.equal(terminalText('a \u001b[7m#\u001b[27m b\n'), 'a # b');
		assert.equal(terminalText('done\u001b[1m\u001b[7m%\u001b[27m\u001b[1m\u001b[0m     \rX\r'), 'Xone%');
		assert.equal(terminalText('50%\u001b[7m#\u001b[27m   \n'), '50%#');
	});

	it('gives the same text whatever the chunks, and no control character', () => {
		const whole = terminalText(ZSH);
		for (const size of [1, 2, 3, 7, 64]) {
			assert.equal(cleanedInChunks(ZSH, size), whole, `in chunks of ${size}`);
		}
		for (const output of commandOutputs(ZSH)) {
			const text = terminalText(output);
			for (const size of [1, 2, 3, 7, 64]) {
				assert.equal(cleanedInChunks(output, size), text, `${JSON.stringify(text)} in chunks of ${size}`);
			}
		}
		// eslint-disable-next-line no-control-regex -- looking for control characters
		assert.doesNotMatch(whole, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u, 'no control character left');
	});
});
