/**
 * The file behind `startSandbox({ stateFile })`: the state is read from it at start, and written to it a
 * moment after changes and at close(), so a restarted sandbox goes on where the last one stopped, as the
 * real Rubika does (savedState.ts says what is kept).
 *
 * A save never leaves a half-written file in place: the JSON goes to `<file>.tmp`, is flushed to disk and
 * renamed over the file, which is atomic on one file system. A leftover `<file>.tmp` is a save that did not
 * finish (the process died mid-write); the file beside it is the last complete save and is used. A file
 * that cannot be used (not JSON, another format or version, a state that does not hold together) is moved
 * aside to `<file>.bad-<time>`, reported on stderr and in `status`, and the sandbox starts from its seed.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Changes within this long are written together; a crash loses at most this much. */
export const SAVE_DELAY_MS = 250;

export interface StateFileStatus {
	/** Absolute path of the state file. */
	file: string;
	/** Whether the state came from the file; false: a new state from the seed (no file yet, or a bad one). */
	restored: boolean;
	/** Why an existing file was not used. */
	problem?: string;
	/** Where that file was moved. */
	setAside?: string;
}

export class StateFile {
	readonly status: StateFileStatus;
	readonly #temp: string;
	/** The JSON of the state, as it is now. */
	readonly #serialize: () => string;
	#lastWritten: string | undefined;
	#pending: NodeJS.Timeout | undefined;
	#lastError: string | undefined;

	constructor(file: string, serialize: () => string) {
		this.status = { file: path.resolve(file), restored: false };
		this.#temp = `${this.status.file}.tmp`;
		this.#serialize = serialize;
	}

	/**
	 * Reads the saved state: `restore` turns the file's JSON into it and throws on anything it cannot use.
	 * Returns undefined when there is no file, or a bad one (then moved aside and reported).
	 */
	load<T>(restore: (data: unknown) => T): T | undefined {
		const { file } = this.status;
		if (fs.existsSync(this.#temp)) {
			fs.rmSync(this.#temp, { force: true });
			console.warn(`[rubika-sandbox] removed ${this.#temp}, left by a save that did not finish; ${file} holds the last complete save`);
		}
		let text: string;
		try {
			text = fs.readFileSync(file, 'utf8');
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
			throw error;
		}
		try {
			const restored = restore(JSON.parse(text));
			this.#lastWritten = text;
			this.status.restored = true;
			return restored;
		} catch (error) {
			this.setAside(error instanceof Error ? error.message : String(error));
			return undefined;
		}
	}

	/** The state may have changed: save within SAVE_DELAY_MS (later changes meanwhile ride along). */
	changed(): void {
		if (this.#pending) return;
		this.#pending = setTimeout(() => {
			this.#pending = undefined;
			this.save();
		}, SAVE_DELAY_MS);
		// A save still waiting must not keep a process alive; close() writes it.
		this.#pending.unref();
	}

	/** Writes what is pending, now. */
	close(): void {
		clearTimeout(this.#pending);
		this.#pending = undefined;
		this.save();
	}

	/**
	 * Writes the state unless it is what the file already holds. A failed write is reported and leaves the
	 * file as it was (a half-written temp file is overwritten by the next save, or removed at the next start).
	 */
	private save(): void {
		const text = this.#serialize();
		if (text === this.#lastWritten) return;
		try {
			writeAtomically(this.status.file, this.#temp, text);
			this.#lastWritten = text;
			this.#lastError = undefined;
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			// Once per distinct error: a full disk would otherwise repeat it after every request.
			if (message !== this.#lastError) console.error(`[rubika-sandbox] could not save the state to ${this.status.file}: ${message}`);
			this.#lastError = message;
		}
	}

	private setAside(problem: string): void {
		const { file } = this.status;
		const setAside = `${file}.bad-${new Date().toISOString().replace(/[:.]/g, '-')}`;
		fs.renameSync(file, setAside);
		Object.assign(this.status, { problem, setAside });
		console.warn(`[rubika-sandbox] could not use the state file ${file} (${problem}); moved it to ${setAside} and started a new state`);
	}
}

/** The temp file, flushed to disk, then renamed over the file: whoever reads `file` sees the old or the new JSON whole. */
function writeAtomically(file: string, temp: string, text: string): void {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	// The state holds bot tokens: readable by its owner only, like n8n's own config.
	const fd = fs.openSync(temp, 'w', 0o600);
	try {
		fs.writeSync(fd, text);
		fs.fsyncSync(fd);
	} finally {
		fs.closeSync(fd);
	}
	fs.renameSync(temp, file);
	syncDirectory(path.dirname(file));
}

/** Makes the rename itself durable; some file systems refuse to sync a directory, and then it is skipped. */
function syncDirectory(dir: string): void {
	let fd: number | undefined;
	try {
		fd = fs.openSync(dir, 'r');
		fs.fsyncSync(fd);
	} catch {
		/* best effort: the rename is still atomic */
	} finally {
		if (fd !== undefined) fs.closeSync(fd);
	}
}
