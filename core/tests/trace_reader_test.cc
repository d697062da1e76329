#include "host/trace_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ssdp {
namespace {

// Expects a parse failure whose message mentions every fragment.
void ExpectError(std::string_view text, std::vector<std::string> fragments, double time_scale = 1) {
  std::vector<TraceEntry> entries{{1, 2, 3, true}};
  const Status status = ParseTrace(text, time_scale, &entries);
  ASSERT_FALSE(status.ok()) << text;
  EXPECT_EQ(status.code(), Status::Code::kInvalidArgument);
  for (const std::string& fragment : fragments) {
    EXPECT_NE(status.message().find(fragment), std::string::npos)
        << "message \"" << status.message() << "\" lacks \"" << fragment << "\"";
  }
  EXPECT_TRUE(entries.empty());
}

TEST(TraceReaderTest, ParsesValidLines) {
  const std::string text =
      "# a comment line\n"
      "0 0 0 8 0\n"
      "\n"
      "   \t \n"
      "1500\t1   16  1 1\r\n"
      "  1500 2 1000000000000 32768 1   # trailing comment\n"
      "2000 0 7 3 0";  // no final newline
  std::vector<TraceEntry> entries;
  const Status status = ParseTrace(text, 1.0, &entries);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].time_ns, 0u);
  EXPECT_EQ(entries[0].offset_bytes, 0u);
  EXPECT_EQ(entries[0].bytes, 4096u);
  EXPECT_FALSE(entries[0].is_read);
  EXPECT_EQ(entries[1].time_ns, 1500u);
  EXPECT_EQ(entries[1].offset_bytes, 16u * 512);
  EXPECT_EQ(entries[1].bytes, 512u);
  EXPECT_TRUE(entries[1].is_read);
  EXPECT_EQ(entries[2].time_ns, 1500u);  // equal timestamps are allowed
  EXPECT_EQ(entries[2].offset_bytes, 1000000000000ull * 512);
  EXPECT_EQ(entries[2].bytes, 16u << 20);
  EXPECT_EQ(entries[3].offset_bytes, 7u * 512);
  EXPECT_EQ(entries[3].bytes, 1536u);
}

TEST(TraceReaderTest, EmptyAndCommentOnlyTextsGiveNoEntries) {
  std::vector<TraceEntry> entries{{1, 2, 3, true}};
  EXPECT_TRUE(ParseTrace("", 1, &entries).ok());
  EXPECT_TRUE(entries.empty());
  EXPECT_TRUE(ParseTrace("# nothing\n\n#\n", 1, &entries).ok());
  EXPECT_TRUE(entries.empty());
}

TEST(TraceReaderTest, TimeScaleMultipliesAndRounds) {
  std::vector<TraceEntry> entries;
  ASSERT_TRUE(ParseTrace("0 0 0 1 0\n3 0 0 1 0\n1000 0 0 1 0\n", 0.5, &entries).ok());
  EXPECT_EQ(entries[0].time_ns, 0u);
  EXPECT_EQ(entries[1].time_ns, 2u);  // 1.5 rounds up
  EXPECT_EQ(entries[2].time_ns, 500u);
  ASSERT_TRUE(ParseTrace("1 0 0 1 0\n1000000 0 0 1 0\n", 2.5, &entries).ok());
  EXPECT_EQ(entries[0].time_ns, 3u);  // 2.5 rounds up
  EXPECT_EQ(entries[1].time_ns, 2500000u);
  ASSERT_TRUE(ParseTrace("7 0 0 1 0\n", 0.001, &entries).ok());
  EXPECT_EQ(entries[0].time_ns, 0u);
}

TEST(TraceReaderTest, RejectsBadTimeScale) {
  ExpectError("0 0 0 1 0\n", {"time_scale"}, 0);
  ExpectError("0 0 0 1 0\n", {"time_scale"}, -1);
}

TEST(TraceReaderTest, RejectsMissingFields) {
  ExpectError("0 0 0 8 0\n10 0 0 8\n", {"line 2", "missing field 'type'"});
  ExpectError("# header\n\n5\n", {"line 3", "missing field 'device'"});
  ExpectError("5 0 0 # size went missing\n", {"line 1", "missing field 'size_sectors'"});
}

TEST(TraceReaderTest, RejectsExtraFields) {
  ExpectError("0 0 0 8 0\n0 0 0 8 0 9\n", {"line 2", "extra field '9'"});
}

TEST(TraceReaderTest, RejectsNonNumericText) {
  ExpectError("0 0 0 8 0\n0 0 0 8 0\nabc 0 0 8 0\n", {"line 3", "'time_ns'", "'abc'"});
  ExpectError("0 sda 0 8 0\n", {"line 1", "'device'", "'sda'"});
  ExpectError("0 0 12x 8 0\n", {"line 1", "'lba_sectors'", "'12x'"});
  ExpectError("0 0 0 -8 0\n", {"line 1", "'size_sectors'", "'-8'"});
  ExpectError("0 0 0 8 R\n", {"line 1", "'type'", "'R'"});
  ExpectError("1.5 0 0 8 0\n", {"line 1", "'time_ns'", "'1.5'"});
  ExpectError("0 0 99999999999999999999999 8 0\n", {"line 1", "'lba_sectors'", "too large"});
}

TEST(TraceReaderTest, RejectsBadType) {
  ExpectError("0 0 0 8 0\n1 0 0 8 2\n", {"line 2", "'type'", "0 (write) or 1 (read)", "'2'"});
}

TEST(TraceReaderTest, RejectsBadSizes) {
  ExpectError("0 0 0 0 0\n", {"line 1", "'size_sectors'", "'0'"});
  ExpectError("0 0 0 32769 1\n", {"line 1", "'size_sectors'", "16 MiB", "'32769'"});
  std::vector<TraceEntry> entries;
  EXPECT_TRUE(ParseTrace("0 0 0 32768 1\n", 1, &entries).ok());
}

TEST(TraceReaderTest, RejectsAddressesPastTwoToTheSixtyFour) {
  ExpectError("0 0 36028797018963968 8 0\n", {"line 1", "'lba_sectors'"});
}

TEST(TraceReaderTest, RejectsTimestampsGoingBackwards) {
  ExpectError("100 0 0 8 0\n# gap\n200 0 0 8 0\n\n150 0 0 8 0\n",
              {"line 5", "'time_ns'", "goes backwards", "200", "line 3", "'150'"});
}

TEST(TraceReaderTest, RejectsTimesThatOverflowWhenScaled) {
  ExpectError("18446744073709551615 0 0 8 0\n", {"line 1", "'time_ns'", "time_scale"}, 2);
}

TEST(TraceReaderTest, ShortensRunawayTextInMessages) {
  const std::string junk(5000, 'z');
  std::vector<TraceEntry> entries;
  const Status status = ParseTrace("0 0 0 8 " + junk + "\n", 1, &entries);
  ASSERT_FALSE(status.ok());
  EXPECT_LT(status.message().size(), 200u);
}

TEST(TraceReaderTest, ParsesManyLines) {
  std::string text;
  const int lines = 200000;
  for (int i = 0; i < lines; ++i) {
    text += std::to_string(i * 1000) + " 0 " + std::to_string(i * 8) + " 8 " + std::to_string(i & 1) + "\n";
  }
  std::vector<TraceEntry> entries;
  ASSERT_TRUE(ParseTrace(text, 1, &entries).ok());
  ASSERT_EQ(entries.size(), size_t(lines));
  EXPECT_EQ(entries.back().time_ns, uint64_t(lines - 1) * 1000);
  EXPECT_EQ(entries.back().offset_bytes, uint64_t(lines - 1) * 8 * 512);
  EXPECT_TRUE(entries.back().is_read);
}

}  // namespace
}  // namespace ssdp
