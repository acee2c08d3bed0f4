// Runs app.js with V8's CPU profiler writing Profile and ProfileChunk trace events: node starts
// V8's tracing profiler only when the category is enabled at run time, not by
// --trace-event-categories alone (node 20).
'use strict';
const tracing = require('trace_events').createTracing({
  categories: ['disabled-by-default-v8.cpu_profiler'],
});
tracing.enable();
require('./app.js');
setTimeout(() => tracing.disable(), 800);
