// Preloaded (`node --import`) into a scanner process under test: on exit, writes the process's peak resident set
// size to stderr as `peak-rss-mib: N`, so a test can hold the scanner's memory to a bound whatever the target sends.
process.on('exit', () => {
  process.stderr.write(`peak-rss-mib: ${Math.round(process.resourceUsage().maxRSS / 1024)}\n`);
});
