// @ts-check
/**
 * The webpack loader behind `turnkey-emulator/webpack` (CommonJS, as webpack loads loaders with
 * require). The plugin in webpack.js passes the substitutions as options and limits the rule to
 * modules under node_modules.
 * @this {{ async(): (err: Error | null, code?: string, map?: unknown) => void; getOptions(): { substitutions: ReadonlyArray<readonly [string, string]> } }}
 * @param {string} source
 * @param {unknown} map
 */
module.exports = function turnkeyEmulatorTrustLoader(source, map) {
  const callback = this.async();
  const { substitutions } = this.getOptions();
  import("./substitute.js").then(
    ({ substituteEnclaveKeys }) => {
      const patched = substituteEnclaveKeys(source, substitutions);
      // Same-length literals: the incoming source map stays valid.
      callback(null, patched ?? source, map);
    },
    (err) => callback(err),
  );
};
