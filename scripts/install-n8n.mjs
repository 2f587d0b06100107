#!/usr/bin/env node
// Installs a pinned, real n8n (and the Node.js it needs) outside the repository (tooling/install-n8n.mjs).
//
//   node scripts/install-n8n.mjs                 # default variant (2.41.1 on Node 24)
//   node scripts/install-n8n.mjs 2.8.4           # Node 20 variant
//   node scripts/install-n8n.mjs --all           # both
//   node scripts/install-n8n.mjs --force         # reinstall even when the install looks fine
//   node scripts/install-n8n.mjs --print         # print the paths (JSON) of the (installed) variant
//   --verbose                                    # show npm's output
// Where it installs (RUBIKA_N8N_HOME) and the default variant (RUBIKA_N8N_VERSION): tooling/install-n8n.mjs.
import { main } from '../tooling/install-n8n.mjs';

main(process.argv).catch((e) => {
	process.stderr.write(`[install-n8n] FAILED: ${e.stack || e}\n`);
	process.exit(1);
});
