// Preloaded into every n8n process this library starts (NODE_OPTIONS=--require …): when the process
// that started n8n dies without stopping it (SIGKILL, a crashed test run), n8n is re-parented and
// would keep running, its log pipe broken, spinning a core. This notices the new parent and ends it.
'use strict';

const parent = process.ppid;
const timer = setInterval(() => {
	if (process.ppid === parent) return;
	clearInterval(timer);
	try {
		process.kill(process.pid, 'SIGTERM');
	} catch {
		/* gone already */
	}
	setTimeout(() => process.kill(process.pid, 'SIGKILL'), 10_000).unref();
}, 1000);
timer.unref();
