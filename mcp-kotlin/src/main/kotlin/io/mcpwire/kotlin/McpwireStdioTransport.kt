package io.mcpwire.kotlin

import io.mcpwire.jsonrpc.DecodeError
import io.mcpwire.jsonrpc.ErrorCodes
import io.mcpwire.jsonrpc.JsonRpcCodec
import io.mcpwire.jsonrpc.JsonRpcError
import io.mcpwire.jsonrpc.JsonRpcRequest
import io.mcpwire.jsonrpc.RequestId as WireId
import io.mcpwire.stdio.StdioClaim
import io.mcpwire.transport.StdioTransport
import io.mcpwire.jsonrpc.TransportClosed
import io.mcpwire.jsonrpc.TransportListener
import io.modelcontextprotocol.kotlin.sdk.shared.AbstractTransport
import io.modelcontextprotocol.kotlin.sdk.shared.TransportSendOptions
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCError
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCMessage
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCResponse
import io.modelcontextprotocol.kotlin.sdk.types.McpException
import io.modelcontextprotocol.kotlin.sdk.types.McpJson
import io.modelcontextprotocol.kotlin.sdk.types.RPCError
import io.modelcontextprotocol.kotlin.sdk.types.RequestId
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import java.io.IOException
import java.lang.System.Logger.Level
import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.AtomicReference
import kotlin.coroutines.ContinuationInterceptor
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.EmptyCoroutineContext

private val LOG: System.Logger by lazy { System.getLogger("io.mcpwire.kotlin") }

/**
 * The SDK's [io.modelcontextprotocol.kotlin.sdk.shared.Transport] over mcpwire's stdio transport:
 * mcpwire reads, frames and bounds the lines, answers those that are not JSON-RPC, keeps the set of
 * requests owed an answer, waits for those answers at end of input or the host's death, and puts
 * the standard streams back; the SDK decodes and handles each message.
 *
 * The claim is the transport's own; it is put back once the SDK has been told of the close.
 * Messages reach the SDK in order, on mcpwire's dispatcher thread, which waits for the SDK's
 * handler until it first suspends (the SDK's own transport does the same on its processor
 * coroutine). The close is told to the SDK on the dispatcher of the coroutine that started the
 * transport: in the SDK's samples, `runBlocking` in `main`, so it runs once that coroutine waits,
 * after it has registered `session.onClose`, however soon the client closed stdin.
 */
internal class McpwireStdioTransport(
    private val stdio: StdioTransport,
    private val claim: StdioClaim,
    private val handlerDispatcher: CoroutineDispatcher?,
) : AbstractTransport() {
    private val codec = JsonRpcCodec.standard()

    /** The settings the claim and the transport were made with. */
    internal val settings get() = stdio.settings()

    /** The mcpwire transport underneath, for tests that end it without a session. */
    internal fun stdioForTests(): StdioTransport = stdio
    private val finishing = AtomicReference<Thread?>(null)
    private val finished = CountDownLatch(1)

    /**
     * Readies both JSON paths (mcpwire's decoder, the SDK's serializer) on a daemon thread while
     * `main` builds the server: the first message would otherwise pay for loading them, some
     * 150 ms of a cold start, before its answer.
     */
    fun warmUp() {
        Thread({
            runCatching {
                val sample = """{"jsonrpc":"2.0","id":0,"method":"ping","params":{}}"""
                val decoded = (codec.decode(sample) as? io.mcpwire.jsonrpc.DecodeResult.Decoded)?.message() ?: return@runCatching
                val message = McpJson.decodeFromString(JSONRPCMessage.serializer(), codec.encodeToString(decoded))
                McpJson.encodeToString(JSONRPCMessage.serializer(), message)
            }
        }, "mcpwire-kotlin-warm-up").apply { isDaemon = true }.start()
    }

    override suspend fun start() {
        val starter: CoroutineContext = currentCoroutineContext()[ContinuationInterceptor] ?: Dispatchers.Default
        stdio.start(Inbound(starter))
    }

    override suspend fun send(message: JSONRPCMessage, options: TransportSendOptions?) {
        val json = McpJson.encodeToString(JSONRPCMessage.serializer(), message)
        try {
            when (val answers = answered(message)) {
                null -> stdio.sendEncoded(json)
                else -> stdio.sendEncodedAnswer(answers, json)
            }
        } catch (e: IOException) {
            throw McpException(RPCError.ErrorCode.CONNECTION_CLOSED, "the transport is closed: ${e.message}", cause = e)
        }
    }

    /** Ends the session without waiting for answers still owed, tells the SDK, and puts the streams back. */
    override suspend fun close() {
        stdio.close()
        finish()
    }

    /**
     * Tells the SDK of the close, then puts the standard streams back: what the SDK logs as it
     * cleans up (a logger on stdout, say) still goes to stderr. Once, by whichever comes first, the
     * close's delivery or [close]; the other waits for it, unless it is the same thread.
     */
    private fun finish() {
        if (finishing.compareAndSet(null, Thread.currentThread())) {
            try {
                invokeOnCloseCallback()
            } finally {
                claim.close()
                finished.countDown()
            }
        } else if (finishing.get() !== Thread.currentThread()) {
            finished.await()
        }
    }

    /** What mcpwire decodes, handed to the SDK; the close, told to it on the starter's dispatcher. */
    private inner class Inbound(private val starter: CoroutineContext) : TransportListener {

        override fun onMessage(message: io.mcpwire.jsonrpc.JsonRpcMessage) {
            val decoded = try {
                McpJson.decodeFromString(JSONRPCMessage.serializer(), codec.encodeToString(message))
            } catch (e: IllegalArgumentException) {
                refuse(message, e)
                return
            }
            try {
                runBlocking(handlerDispatcher ?: EmptyCoroutineContext) { _onMessage(decoded) }
            } catch (e: Exception) {
                LOG.log(Level.ERROR, "the SDK failed on a message; serving goes on", e)
                _onError(e)
            }
        }

        override fun onDecodeError(error: DecodeError) {
            _onError(IllegalArgumentException("a line that is not JSON-RPC, answered ${error.code()}: ${error.message()}"))
        }

        override fun onClosed(closed: TransportClosed) {
            LOG.log(if (closed.reason() == TransportClosed.Reason.FAILED) Level.WARNING else Level.DEBUG, "stdio transport closed: {0}", closed)
            closed.cause()?.let { _onError(it) }
            CoroutineScope(starter).launch { finish() }
        }

        /** JSON-RPC that the SDK's model does not take: a request is answered, as the SDK's own parser would not. */
        private fun refuse(message: io.mcpwire.jsonrpc.JsonRpcMessage, e: IllegalArgumentException) {
            LOG.log(Level.DEBUG, "the SDK could not read a message: {0}", e.message)
            if (message is JsonRpcRequest) {
                runCatching {
                    stdio.send(JsonRpcError.of(message.id(), ErrorCodes.INVALID_REQUEST,
                        "the server could not read this request: " + JsonRpcError.quote(e.message ?: e.toString())))
                }
            }
            _onError(e)
        }
    }

    private companion object {
        /** The request a message answers, for mcpwire's count of answers owed; null for any other. */
        fun answered(message: JSONRPCMessage): WireId? = when (message) {
            is JSONRPCResponse -> wireId(message.id)
            is JSONRPCError -> message.id?.let { wireId(it) }
            else -> null
        }

        fun wireId(id: RequestId): WireId = when (id) {
            is RequestId.StringId -> WireId.of(id.value)
            is RequestId.NumberId -> WireId.of(id.value)
        }
    }
}
