// After every test file: what the in-process n8n harness left on disk goes.
import { removeBinaryDataFolder } from '../../tooling/harness/n8n';

afterAll(() => removeBinaryDataFolder());
