// n8n-core logs every failed execution at info level. The tests cause hundreds of them on purpose and assert
// the errors themselves, so only warnings and worse are printed; `N8N_LOG_LEVEL=debug npx jest …` shows all.
process.env.N8N_LOG_LEVEL ??= 'warn';
