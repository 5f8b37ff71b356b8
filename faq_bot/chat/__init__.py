"""The chatbot's parts that are fitted or shared (the answer itself: `faq_bot.answer`)."""
