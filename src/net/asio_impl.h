#pragma once
// Private to src/net (.cpp files only): the Asio names the server and client share. Never include
// this, or any other src/net/*_impl.h, from outside src/net (scripts/check-deps checks).
#include <utility>  // before Asio: boost/asio/awaitable.hpp uses std::exchange without including it

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>

#include "net/http.h"

namespace llmtriage::net::detail {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using TimePoint = SteadyClock::time_point;

}  // namespace llmtriage::net::detail
