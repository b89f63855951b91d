/**
 * The byte ring under the claim's stray-output drain, which the transport's inbound pipe shares:
 * exported to the transport alone.
 */
package io.mcpwire.stdio.buffer;
