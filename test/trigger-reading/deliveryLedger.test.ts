/**
 * The reading trigger's ledger on its own: the saved cursor moves past a page only when the page was read to
 * its end and every execution started from it has finished, oldest page first. (delivery.test.ts checks the
 * same rule through the whole trigger, with n8n-core and the sandbox; this pins each case in isolation.)
 */
import { DeliveryLedger } from '../../nodes/RubikaTrigger/reading/deliveryLedger';

function ledger() {
	const moves: string[] = [];
	return { moves, ledger: new DeliveryLedger((end) => moves.push(end)) };
}

test('a page with nothing handed over moves the cursor as soon as it is closed', () => {
	const { moves, ledger: l } = ledger();
	const page = l.open('10');
	expect(moves).toEqual([]);
	l.close(page);
	expect(moves).toEqual(['10']);
});

test('the cursor waits for every execution of the page, and for the page to be read to its end', () => {
	const { moves, ledger: l } = ledger();
	const page = l.open('20');
	l.started('a', page);
	l.started('b', page);
	expect(l.runningCount).toBe(2);
	expect(l.finished('a')).toBe(true);
	expect(l.finished('b')).toBe(true);
	expect(moves).toEqual([]); // all finished, but the page is still being read
	l.close(page);
	expect(moves).toEqual(['20']);
	expect(l.runningCount).toBe(0);
});

test('a later page that finishes first waits for the older one: the cursor never skips an unfinished update', () => {
	const { moves, ledger: l } = ledger();
	const older = l.open('30');
	l.started('slow', older);
	l.close(older);
	const newer = l.open('40');
	l.started('fast', newer);
	l.close(newer);
	l.finished('fast');
	expect(moves).toEqual([]);
	l.finished('slow');
	expect(moves).toEqual(['30', '40']);
});

test('an update read again on a later page while it still runs holds that page too', () => {
	const { moves, ledger: l } = ledger();
	const first = l.open('50');
	l.started('a', first);
	l.close(first);
	const again = l.open('60');
	expect(l.joinIfRunning('a', again)).toBe(true);
	expect(l.joinIfRunning('b', again)).toBe(false);
	l.close(again);
	expect(moves).toEqual([]);
	expect(l.runningCount).toBe(1); // one execution, however many pages wait for it
	l.finished('a');
	expect(moves).toEqual(['50', '60']);
});

test('a page whose reading failed halfway moves nothing; its executions still finish', () => {
	const { moves, ledger: l } = ledger();
	const failed = l.open('70');
	l.started('a', failed);
	l.discard(failed);
	expect(l.finished('a')).toBe(true);
	expect(moves).toEqual([]);
	const retried = l.open('70');
	l.close(retried);
	expect(moves).toEqual(['70']);
});

test('after the position is refused, older pages can no longer move the cursor', () => {
	const { moves, ledger: l } = ledger();
	const stale = l.open('80');
	l.started('a', stale);
	l.close(stale);
	l.discardAll();
	expect(l.finished('a')).toBe(true);
	expect(moves).toEqual([]);
});

test('a key finished twice, or never handed over, changes nothing', () => {
	const { moves, ledger: l } = ledger();
	const page = l.open('90');
	l.started('a', page);
	l.close(page);
	expect(l.finished('a')).toBe(true);
	expect(l.finished('a')).toBe(false);
	expect(l.finished('never')).toBe(false);
	expect(moves).toEqual(['90']);
});

test('a page without an end (Rubika gave no next position) completes without moving the cursor', () => {
	const { moves, ledger: l } = ledger();
	const page = l.open(undefined);
	l.close(page);
	const next = l.open('100');
	l.close(next);
	expect(moves).toEqual(['100']);
});
