// Read by the Allure 3 CLI (`npm run report:allure`, i.e. `allure generate`): one report from the results
// allure-playwright wrote during a run with IWB_ALLURE=1 (sharded runs: in each shard, since allure-playwright
// fails under merge-reports). The IWB_ALLURE_RESULTS that tells the Playwright config where to write
// tells the CLI where to read.
export default {
  name: 'InteractWeb-Bench',
  resultsDir: process.env.IWB_ALLURE_RESULTS || './allure-results',
  output: process.env.IWB_ALLURE_REPORT || './allure-report',
  plugins: {
    // The tree follows the benchmark's own grouping: persona (epic), task (feature), slot (story).
    awesome: { options: { groupBy: ['epic', 'feature', 'story'] } },
  },
};
