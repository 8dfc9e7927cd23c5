/**
 * Seed states (the format: emulator/core/fixture.ts and fixtures/fixture.schema.json).
 * Seeding writes a fixture into an empty store; `reset` clears the store and seeds it again.
 */
export { fixtureSchema, fixtureJsonSchema, fixtureOrganizations, type Fixture, type FixtureOrganization } from "./core/fixture.js";
export { DEFAULT_FIXTURE_PATH, FIXTURES_DIR, FixtureError, loadFixture, parseFixture, resolveFixturePath } from "./fixtures/load.js";
export { seedFixture } from "./fixtures/seed.js";
export { findProjectFixture, PROJECT_FIXTURE } from "./fixtures/project-file.js";
export { fixtureInfo, organizationsInfo, type SeededOrganization } from "./fixtures/info.js";
